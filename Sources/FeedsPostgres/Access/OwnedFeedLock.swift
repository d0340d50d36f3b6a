import FeedsCore
import Logging
import PostgresNIO

/// The first lock of a change the feed's owner makes to what hangs off the feed (its members,
/// its pins): the feed's row, `FOR NO KEY UPDATE`, refusing anyone but the owner or the server.
/// The counts' triggers of those tables take the same row, so it is held before they run.
enum OwnedFeedLock {
    static func take(
        _ feed: FeedID, by principal: Principal, to what: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let rows = try await connection.query(
            "SELECT created_by FROM feeds WHERE fid = \(feed.description) FOR NO KEY UPDATE", logger: logger)
        var owner: String?
        for try await id in rows.decode(String.self) { owner = id }
        guard let owner else { throw FeedsError.notFound("feed \(feed) does not exist") }
        guard principal.mayModify(ownedBy: owner) else {
            throw FeedsError.notAllowed("only \(owner), the owner of \(feed), or the server may \(what)")
        }
    }
}
