/// DeleteFeed and DeleteFeedsBatch: which feeds go, and how.
///
/// Either way the feeds leave every read, and their follows (both ways), members, pins and
/// notifications go with them; an activity posted to other feeds too stays there, detached from
/// these. An activity posted only to these feeds is soft-deleted (RestoreActivity brings it back,
/// into a feed of that id if one is made again), or with `hard` removed with its files. With
/// `purgeOwnerActivities` (only with `hard`), the activities the feeds' owners posted to them are
/// removed everywhere, not only detached.
public struct FeedDeletion: Sendable, Hashable {
    public var feeds: [FeedID]
    public var hard: Bool
    public var purgeOwnerActivities: Bool

    public init(feeds: [FeedID], hard: Bool, purgeOwnerActivities: Bool) throws(FeedsError) {
        guard !feeds.isEmpty else { throw .input("name at least one feed to delete", field: "feeds") }
        guard feeds.count <= Self.maxBatch else {
            throw .input("at most \(Self.maxBatch) feeds in one delete, not \(feeds.count)", field: "feeds")
        }
        guard !purgeOwnerActivities || hard else {
            throw .input("purge_user_activities needs hard_delete", field: "purge_user_activities")
        }
        var seen = Set<FeedID>()
        self.feeds = feeds.filter { seen.insert($0).inserted }
        (self.hard, self.purgeOwnerActivities) = (hard, purgeOwnerActivities)
    }

    /// Most feeds in one DeleteFeedsBatch, as CreateFeedsBatch makes.
    public static let maxBatch = FeedCreation.maxBatch
}

/// What a feed deletion did: the feeds as they were, the activities it deleted (soft or hard),
/// and the task it recorded.
public struct DeletedFeeds: Sendable {
    public var feeds: [Feed]
    public var activities: [String]
    public var task: BackgroundTask

    public init(feeds: [Feed], activities: [String], task: BackgroundTask) {
        (self.feeds, self.activities, self.task) = (feeds, activities, task)
    }
}
