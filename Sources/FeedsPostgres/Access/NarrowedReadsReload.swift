import FeedsCore
import Logging
import PostgresNIO
import Synchronization

/// Ends this node's watches that the app's grants no longer allow. A watch is checked when it
/// starts; when a change (UpdateFeedVisibility) takes reading away from a role at a level, every
/// watch here of a feed at that level ends but its owner's, and the others watch again with their
/// next read, which checks. `AppSettingsListener` calls it after each reload, on every node.
public final class NarrowedReadsReload: Sendable {
    let client: PostgresClient
    let cache: AppSettingsCache
    let logger: Logger
    /// The feeds watched on this node.
    let watched: @Sendable () -> [String]
    /// Ends every watch of the feed here but its owner's.
    let revoke: @Sendable (_ fid: String, _ owner: String) -> Void
    /// The grants of the last reload.
    private let seen: Mutex<FeedGrants>

    public init(
        client: PostgresClient, cache: AppSettingsCache, logger: Logger, watched: @escaping @Sendable () -> [String],
        revoke: @escaping @Sendable (String, String) -> Void
    ) {
        (self.client, self.cache, self.logger, self.watched, self.revoke) = (client, cache, logger, watched, revoke)
        seen = Mutex(cache.feedGrants)
    }

    public func callAsFunction(_ reason: String) async {
        let now = cache.feedGrants
        let before = seen.withLock { held in
            defer { held = now }
            return held
        }
        let narrowed = Self.narrowed(from: before, to: now)
        let watched = watched()
        guard !narrowed.isEmpty, !watched.isEmpty else { return }
        do {
            let rows = try await client.query(
                "SELECT fid, created_by FROM feeds WHERE fid = ANY(\(watched)) AND visibility = ANY(\(narrowed.map(\.rawValue)))",
                logger: logger)
            for try await (fid, owner) in rows.decode((String, String).self) { revoke(fid, owner) }
        } catch {
            // The watches stay until their feeds' next change of visibility or their sockets close.
            logger.warning(
                "cannot end the watches the new grants forbid", metadata: ["reason": "\(reason)", "error": "\(error)"])
        }
    }

    /// The levels where some role may no longer read.
    static func narrowed(from before: FeedGrants, to now: FeedGrants) -> [FeedVisibility] {
        FeedVisibility.allCases.filter { visibility in
            FeedGrants.roles.contains { before.allows(.read, $0.role, visibility) && !now.allows(.read, $0.role, visibility) }
        }
    }
}
