import FeedsCore
import Logging
import PostgresNIO

/// UnfollowBatch, GetOrCreateUnfollows and UpdateFollow: follows ended in batches, and a follow's
/// settings changed, each under the same feed locks as a single follow or unfollow.
extension PostgresActivityStore {
    public func unfollow(_ pairs: [UnfollowPair], skipMissing: Bool, by principal: Principal, logger: Logger) async throws
        -> [Follow]
    {
        var seen = Set<String>()
        let pairs = pairs.filter { seen.insert("\($0.source) \($0.target)").inserted }
        let removed: [FollowColumns] = try await client.transaction(logger: logger) { connection in
            let access = try await Self.access(Set(pairs.flatMap { [$0.source, $0.target] }), on: connection, logger: logger)
            var removed: [FollowColumns] = []
            var counts: [String: (followers: Int, following: Int)] = [:]
            for pair in pairs {
                let (source, target) = (pair.source, pair.target)
                let feeds: (source: FeedAccess, target: FeedAccess)
                do {
                    feeds = (try Self.feed(source, in: access), try Self.feed(target, in: access))
                } catch let error as FeedsError where skipMissing && error.kind == .notFound {
                    continue
                }
                // The follower leaves, or the followed feed's owner (or a member granted it) removes
                // them (`manageFollowers`).
                if let user = principal.userID, user != feeds.source.owner, user != feeds.target.owner,
                    try await !Self.manages(.manageFollowers, target, user: user, on: connection, logger: logger)
                {
                    throw FeedsError.notAllowed(
                        "only the owners of \(source) and \(target) (or a member the app lets manage \(target)'s followers) "
                            + "may end this follow")
                }
                let rows = try await connection.query(
                    """
                    DELETE FROM follows WHERE source_fid = \(source.description) AND target_fid = \(target.description)
                    RETURNING \(unescaped: FollowColumns.list)
                    """, logger: logger)
                var found: FollowColumns?
                for try await row in rows { found = try FollowColumns(row) }
                guard let found else {
                    if skipMissing { continue }
                    throw FeedsError.notFound("\(source) does not follow \(target)")
                }
                if found.status == .accepted {
                    counts[target.description, default: (0, 0)].followers -= 1
                    counts[source.description, default: (0, 0)].following -= 1
                }
                if !pair.keepHistory { try await Self.removeCopies(in: source, via: target, on: connection, logger: logger) }
                removed.append(found)
            }
            try await Self.adjust(counts, on: connection, logger: logger)
            return removed
        }
        guard !removed.isEmpty else { return [] }
        let ids = Set(removed.flatMap { [$0.source, $0.target] })
        let feeds = try await self.feeds(try ids.map { try FeedID($0) }, readableBy: nil, logger: logger)
        let byID = Dictionary(uniqueKeysWithValues: feeds.map { ($0.id.description, $0) })
        return try removed.map { try $0.follow(feeds: byID) }
    }

    public func updateFollow(source: FeedID, target: FeedID, _ change: FollowChange, by principal: Principal, logger: Logger)
        async throws -> Follow
    {
        try await client.transaction(logger: logger) { connection in
            let access = try await Self.access([source, target], on: connection, logger: logger)
            let (sourceFeed, targetFeed) = (try Self.feed(source, in: access), try Self.feed(target, in: access))
            if let user = principal.userID {
                if change.byFollower, user != sourceFeed.owner {
                    throw FeedsError.notAllowed("only \(source)'s owner changes its follow's custom data and push_preference")
                }
                if change.followerRole != nil, user != targetFeed.owner,
                    try await !Self.manages(.manageFollowers, target, user: user, on: connection, logger: logger)
                {
                    throw FeedsError.notAllowed(
                        "only \(target)'s owner (or a member the app lets manage its followers) sets its followers' follower_role")
                }
            }
            let rows = try await connection.query(
                """
                UPDATE follows SET custom = coalesce(\(change.custom.map(JSONText.encode))::jsonb, custom),
                    push_preference = coalesce(\(change.pushPreference), push_preference),
                    follower_role = coalesce(\(change.followerRole), follower_role), updated_at = now()
                WHERE source_fid = \(source.description) AND target_fid = \(target.description)
                RETURNING status
                """, logger: logger)
            var found: String?
            for try await status in rows.decode(String.self) { found = status }
            guard let found else { throw FeedsError.notFound("\(source) does not follow \(target)") }
            if let asked = change.status?.rawValue, asked != found {
                throw FeedsError.input(
                    "the follow is \(found); AcceptFollow and RejectFollow change its status", field: "status")
            }
        }
        let follows = try await self.follows([(source.description, target.description)], logger: logger)
        guard let follow = follows[source.description + " " + target.description] else {
            throw FeedsError.notFound("\(source) does not follow \(target)")
        }
        return follow
    }
}
