import Foundation

/// What QueryActivities and feed reads ask for: filters, a page size and a cursor.
public struct ActivityQuery: Sendable, Hashable {
    /// Only these activities (a lookup by id).
    public var ids: [String]?
    public var feeds: [String]?
    public var userIDs: [String]?
    public var types: [String]?
    public var createdAt: [TimeBound]
    /// Who reads: users see public activities and their own.
    public var viewer: Principal
    /// Whose own reactions and bookmarks the activities carry: the viewer's, unless the server
    /// reads on behalf of a user.
    public var ownFieldsOf: String?
    public var limit: Int
    public var cursor: ActivityCursor?
    /// The page's order: newest first unless QueryActivities asks for another.
    public var sort = ActivitySort.newestFirst
    /// Whether a share carries the activity it shares (`parent`); that one's own parent is left out.
    public var embedsParents = true
    /// Whether counts and newest reactions are as the viewer may see them: less the share of the
    /// users blocked either way with them. Reads set it; a write's read-back does not, since its
    /// activity is also its event's, which others get (and must not learn whom the writer blocked).
    public var leavesOutBlocked = false

    public init(
        feeds: [String]? = nil, userIDs: [String]? = nil, types: [String]? = nil, createdAt: [TimeBound] = [],
        viewer: Principal, limit: Int = ActivityQuery.defaultLimit, cursor: ActivityCursor? = nil
    ) {
        self.ids = nil
        self.feeds = feeds
        self.userIDs = userIDs
        self.types = types
        self.createdAt = createdAt
        self.viewer = viewer
        self.ownFieldsOf = viewer.userID
        self.limit = limit
        self.cursor = cursor
    }

    /// One activity by id, as `viewer` reads it, with `ownFieldsOf`'s own reactions and bookmarks.
    public static func one(_ id: String, viewer: Principal, ownFieldsOf: String?) -> ActivityQuery {
        var query = ActivityQuery(viewer: viewer, limit: 1)
        query.ids = [id]
        query.ownFieldsOf = ownFieldsOf
        return query
    }

    public static let defaultLimit = 25
    public static let maxLimit = 100

    /// The sort, and the cursor checked against it: a sorted read pages forward only (`next`),
    /// with cursors made in that same sort.
    public mutating func sort(by sort: ActivitySort) throws(FeedsError) {
        self.sort = sort
        guard let cursor else { return }
        if sort == .newestFirst {
            guard cursor.sort == nil else { throw .input("next was made by a read in another sort", field: "next") }
        } else {
            guard cursor.direction == .older else { throw .input("a sorted read pages forward with next", field: "prev") }
            guard cursor.sort == sort.token else { throw .input("next was made by a read in another sort", field: "next") }
        }
    }

    /// Validates the page size and the cursors of a request.
    public static func page(limit: Int?, next: String?, prev: String?) throws(FeedsError) -> (Int, ActivityCursor?) {
        let limit = limit ?? defaultLimit
        guard (0...maxLimit).contains(limit) else {
            throw .input("limit must be between 0 and \(maxLimit)", field: "limit")
        }
        if next != nil, prev != nil { throw .input("give next or prev, not both", field: "next") }
        if let next, !next.isEmpty {
            return (limit == 0 ? defaultLimit : limit, try ActivityCursor(token: next, expected: .older, field: "next"))
        }
        if let prev, !prev.isEmpty {
            return (limit == 0 ? defaultLimit : limit, try ActivityCursor(token: prev, expected: .newer, field: "prev"))
        }
        return (limit == 0 ? defaultLimit : limit, nil)
    }
}

/// One page of activities, newest first, with the cursors around it.
public struct ActivityPage: Sendable, Hashable {
    public var activities: [Activity]
    /// Older activities follow.
    public var next: ActivityCursor?
    /// Newer activities precede.
    public var prev: ActivityCursor?

    public init(activities: [Activity], next: ActivityCursor?, prev: ActivityCursor?) {
        self.activities = activities
        self.next = next
        self.prev = prev
    }
}
