import FeedsAPI
import FeedsCore

/// The bounds `openapi.yaml` declares on request fields this server accepts but does not act on
/// yet (collections, tags, mentions, a feed's `data`, the follower and member pages...). They are
/// checked anyway, so that a request the spec calls invalid is refused whether or not its field is
/// used (schema fuzzing holds the server to this). The fields the server uses are checked where
/// they are read.
enum DeclaredBounds {
    static func check(_ body: Components.Schemas.AddActivityRequest) throws(FeedsError) {
        try most(body.collections?.count, 100, "collections")
        try most(body.filterTags?.count, 50, "filter_tags")
        try most(body.parentId?.utf8.count, 255, "parent_id", "characters")
        try check(body.location, "location")
    }

    static func check(_ body: Components.Schemas.UpdateActivityRequest) throws(FeedsError) {
        try most(body.filterTags?.count, 50, "filter_tags")
        try most(body.mentionedUserIds?.count, 25, "mentioned_user_ids")
        try check(body.location, "location")
    }

    static func check(_ body: Components.Schemas.QueryActivitiesRequest) throws(FeedsError) {
        try most(body.sort?.count, 5, "sort")
    }

    static func check(_ body: Components.Schemas.GetOrCreateFeedRequest) throws(FeedsError) {
        for (pager, field) in [
            (body.followersPagination, "followers_pagination"), (body.followingPagination, "following_pagination"),
            (body.memberPagination, "member_pagination"),
        ] {
            try range(pager?.limit, 0...100, "\(field).limit")
        }
        try range(body.friendReactionsOptions?.limit, 1...10, "friend_reactions_options.limit")
        try check(body.data?.location, "data.location")
        for (index, member) in (body.data?.members ?? []).enumerated() {
            for (value, name) in [
                (member.userId, "user_id"), (member.role, "role"), (member.membershipLevel, "membership_level"),
            ] {
                try most(value?.utf8.count, 255, "data.members[\(index)].\(name)", "characters")
            }
        }
    }

    /// GetActivity's `comment_limit` query parameter.
    static func commentLimit(_ limit: Int32?) throws(FeedsError) {
        try range(limit, 0...20, "comment_limit")
    }

    static func check(_ feed: Components.Schemas.FeedRequest, field: String) throws(FeedsError) {
        try most(feed.filterTags?.count, 50, field + "filter_tags")
        try check(feed.location, field + "location")
    }

    private static func check(_ location: Components.Schemas.Location?, _ field: String) throws(FeedsError) {
        guard let location else { return }
        guard (-90...90).contains(location.lat), (-180...180).contains(location.lng) else {
            throw .input("\(field) takes lat in -90…90 and lng in -180…180", field: field)
        }
    }

    private static func most(_ count: Int?, _ limit: Int, _ field: String, _ unit: String = "entries") throws(FeedsError) {
        if let count, count > limit { throw .input("\(field) takes at most \(limit) \(unit)", field: field) }
    }

    private static func range(_ value: Int32?, _ bounds: ClosedRange<Int32>, _ field: String) throws(FeedsError) {
        if let value, !bounds.contains(value) {
            throw .input("\(field) must be between \(bounds.lowerBound) and \(bounds.upperBound)", field: field)
        }
    }
}
