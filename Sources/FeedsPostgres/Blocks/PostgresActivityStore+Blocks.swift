import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `BlockStore`: the rows of `user_blocks`. What a block hides is `Unblocked`'s, in every read.
extension PostgresActivityStore {
    public func block(_ blocked: String, by user: String, logger: Logger) async throws -> UserBlock {
        guard blocked != user else { throw FeedsError.input("a user cannot block themselves", field: "blocked_user_id") }
        let made: UserBlock = try await client.transaction(logger: logger) { connection in
            try await Self.ensureUser(user, on: connection, logger: logger)
            let rows = try await connection.query(
                """
                WITH target AS (SELECT id FROM users WHERE id = \(blocked)),
                added AS (
                    INSERT INTO user_blocks (user_id, blocked_user_id) SELECT \(user), id FROM target
                    ON CONFLICT (user_id, blocked_user_id) DO NOTHING RETURNING created_at
                )
                SELECT COALESCE((SELECT created_at FROM added),
                    (SELECT created_at FROM user_blocks WHERE user_id = \(user) AND blocked_user_id = \(blocked)))
                FROM target
                """, logger: logger)
            var createdAt: Date?
            for try await row in rows { createdAt = try row.decode(Date.self) }
            guard let createdAt else { throw FeedsError.notFound("user \(blocked) does not exist") }
            let users = try await Self.users([user, blocked], on: connection, logger: logger)
            guard let blocker = users[user], let target = users[blocked] else {
                throw FeedsError.notFound("user \(blocked) does not exist")
            }
            return UserBlock(user: blocker, blocked: target, createdAt: createdAt)
        }
        // The follows between their feeds end, with the copies they made, as an unfollow ends
        // one. Each is its own transaction: one left by a failure hides nothing the block does not.
        let follows = try await client.query(
            """
            SELECT f.source_fid, f.target_fid FROM follows f
            JOIN feeds s ON s.fid = f.source_fid JOIN feeds t ON t.fid = f.target_fid
            WHERE (s.created_by = \(user) AND t.created_by = \(blocked)) OR (s.created_by = \(blocked) AND t.created_by = \(user))
            """, logger: logger)
        var pairs: [(String, String)] = []
        for try await (source, target) in follows.decode((String, String).self) { pairs.append((source, target)) }
        for (source, target) in pairs {
            guard let source = try? FeedID(source), let target = try? FeedID(target) else { continue }
            do {
                _ = try await unfollow(source: source, target: target, keepHistory: false, by: .server, logger: logger)
            } catch let error as FeedsError where error.kind == .notFound {
                continue  // ended meanwhile
            }
        }
        return made
    }

    public func unblock(_ blocked: String, by user: String, logger: Logger) async throws {
        try await client.query(
            "DELETE FROM user_blocks WHERE user_id = \(user) AND blocked_user_id = \(blocked)", logger: logger)
    }

    public func blocks(by user: String, limit: Int, logger: Logger) async throws -> [UserBlock] {
        let rows = try await client.query(
            """
            SELECT b.created_at, \(unescaped: UserRow.columns(alias: "u"))
            FROM user_blocks b JOIN users u ON u.id = b.blocked_user_id
            WHERE b.user_id = \(user) ORDER BY b.created_at DESC, b.blocked_user_id LIMIT \(limit)
            """, logger: logger)
        var found: [(Date, User)] = []
        for try await row in rows {
            var columns = RowReader(row)
            let createdAt: Date = try columns.next()
            found.append((createdAt, try UserRow.user(&columns)))
        }
        guard !found.isEmpty else { return [] }
        let blocker = try await client.withConnection { connection in
            try await Self.users([user], on: connection, logger: logger)[user]
        }
        guard let blocker else { return [] }
        return found.map { UserBlock(user: blocker, blocked: $0.1, createdAt: $0.0) }
    }

    /// The users among `ids` that exist, by id.
    private static func users(_ ids: [String], on connection: PostgresConnection, logger: Logger) async throws -> [String: User] {
        let rows = try await connection.query(
            "SELECT \(unescaped: UserRow.columns) FROM users WHERE id = ANY(\(ids))", logger: logger)
        return Dictionary(uniqueKeysWithValues: try await UserRow.users(rows).map { ($0.id, $0) })
    }
}
