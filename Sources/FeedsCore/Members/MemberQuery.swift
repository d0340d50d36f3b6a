/// What QueryFeedMembers asks for: a feed's members filtered on `user_id`, `role` and `status`,
/// in order of joining (newest first unless `sort` says otherwise), a page at a time.
public struct MemberQuery: Sendable {
    public var feed: FeedID
    public var userIDs: [String]?
    public var roles: [String]?
    public var statuses: [FeedMember.Status]?
    public var page: KeysetPage

    static let cursorKind = "m"

    public init(feed: FeedID, limit: Int = KeysetPage.defaultLimit) {
        self.feed = feed
        self.page = KeysetPage(limit: limit)
    }

    public init(
        feed: FeedID, filter: JSONObject?, sort: [(field: String?, direction: Int?)], limit: Int?, next: String?, prev: String?,
        field: String = ""
    ) throws(FeedsError) {
        self.feed = feed
        page = try KeysetPage(
            sort: sort, limit: limit, next: next, prev: prev, kind: Self.cursorKind, keyCount: 1, what: "members", field: field)
        for (name, condition) in (filter ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch name {
            case "user_id": userIDs = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "role": roles = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "status":
                statuses = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"]).map {
                    value throws(FeedsError) in
                    guard let status = FeedMember.Status(rawValue: value) else {
                        throw .input("status is member, pending or rejected", field: "filter.status")
                    }
                    return status
                }
            default:
                throw .input(
                    "filtering members on \"\(name)\" is not supported (user_id, role, status)", field: "filter.\(name)")
            }
        }
    }

    /// The cursor past `member`, for `next`.
    public func cursor(after member: FeedMember) -> String {
        KeysetCursor(ascending: page.ascending, micros: member.createdAt.microsecondsSince1970, keys: [member.user.id])
            .token(kind: Self.cursorKind)
    }
}
