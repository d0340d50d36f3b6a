import Foundation

/// A feed read through a view (GetOrCreateFeed's `view`): the feed, the view, who reads, and the page.
public struct ViewPageQuery: Sendable {
    public var feed: FeedID
    public var view: FeedView
    public var viewer: Principal
    /// Whose own reactions and bookmarks the activities carry.
    public var ownFieldsOf: String?
    public var limit: Int
    /// A ranked read's cursor carries its score (`ActivityCursor.score`); a newest-first one does not.
    public var cursor: ActivityCursor?
    /// When the read ranks (a ranked page after the first ranks at its cursor's time).
    public var now: Date

    public init(
        feed: FeedID, view: FeedView, viewer: Principal, ownFieldsOf: String?, limit: Int, cursor: ActivityCursor?, now: Date
    ) {
        (self.feed, self.view, self.viewer, self.ownFieldsOf) = (feed, view, viewer, ownFieldsOf)
        (self.limit, self.cursor, self.now) = (limit, cursor, now)
    }

    /// How many of the newest activities each selector offers a ranked read: a ranking orders
    /// these, so its pages reach this deep per selector.
    public static let rankedCandidates = 1000
}
