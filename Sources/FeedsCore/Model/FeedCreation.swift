/// One feed of CreateFeedsBatch: its id, its creator, its visibility (nil: its group's) and details.
public struct FeedCreation: Sendable, Hashable {
    public var id: FeedID
    public var creatorID: String
    public var visibility: FeedVisibility?
    public var details: FeedDetails

    public init(id: FeedID, creatorID: String, visibility: FeedVisibility?, details: FeedDetails) {
        (self.id, self.creatorID, self.visibility, self.details) = (id, creatorID, visibility, details)
    }

    /// Most feeds in one batch.
    public static let maxBatch = 1000
}
