/// QueryActivities' `sort`: one field, either way. Activities with the same value follow in
/// `created_at` order the same way, then by id, so a cursor marks an exact place.
public struct ActivitySort: Sendable, Hashable {
    public enum Field: String, Sendable, CaseIterable {
        case createdAt = "created_at"
        case popularity
        case reactionCount = "reaction_count"
        case commentCount = "comment_count"
        case bookmarkCount = "bookmark_count"
        case shareCount = "share_count"

        /// The field's value on an activity as read (none for `created_at`, which is the time itself).
        public func value(of activity: Activity) -> Int? {
            let engagement = activity.engagement
            switch self {
            case .createdAt: return nil
            case .popularity: return engagement.popularity
            case .reactionCount: return engagement.reactionCount
            case .commentCount: return engagement.commentCount
            case .bookmarkCount: return engagement.bookmarkCount
            case .shareCount: return engagement.shareCount
            }
        }
    }

    public var field: Field
    public var ascending: Bool

    public init(field: Field, ascending: Bool) { (self.field, self.ascending) = (field, ascending) }

    /// Newest first: the order every feed page has, and the default.
    public static let newestFirst = ActivitySort(field: .createdAt, ascending: false)

    /// Stream's `[{field, direction}]` (direction 1 ascending, -1 descending; 1 when left out),
    /// checked; nothing is newest first.
    public init(_ entries: [(field: String?, direction: Int?)]) throws(FeedsError) {
        guard let first = entries.first else {
            self = .newestFirst
            return
        }
        guard entries.count == 1 else { throw .input("sort takes one field", field: "sort") }
        guard let field = Field(rawValue: first.field ?? "") else {
            let names = Field.allCases.map(\.rawValue).joined(separator: ", ")
            throw .input("activities sort by one of \(names)", field: "sort.field")
        }
        guard [nil, 1, -1].contains(first.direction) else {
            throw .input("sort direction is 1 (ascending) or -1 (descending)", field: "sort.direction")
        }
        self.init(field: field, ascending: (first.direction ?? 1) == 1)
    }

    /// How a cursor names the sort it was made in, so that it pages only that sort.
    public var token: String { "\(field.rawValue)\(ascending ? "+" : "-")" }
}
