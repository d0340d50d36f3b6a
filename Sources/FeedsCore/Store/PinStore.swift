import Logging

/// Where pins live.
public protocol PinStore: Sendable {
    /// Pins `activityID` to `feed` for `user` (the feed's owner, or anyone when `server`), when the
    /// activity is in the feed: 403 for anyone else, 404 when it is not there, 400 past
    /// `PinPage.maxPins`. Pinning again returns the pin as it was (`created` false).
    func pin(_ activityID: String, to feed: FeedID, by user: String, server: Bool, logger: Logger) async throws
        -> (pin: PinRecord, created: Bool)

    /// Takes the pin away; 404 when there is none, 403 for anyone but the owner or the server.
    func unpin(_ activityID: String, from feed: FeedID, by user: String?, logger: Logger) async throws -> PinRecord

    /// The feed's pins, newest first, `limit` of them after the cursor, and whether more follow.
    func pins(of feed: FeedID, limit: Int, after cursor: KeysetCursor?, logger: Logger) async throws -> (pins: [PinRecord], more: Bool)
}
