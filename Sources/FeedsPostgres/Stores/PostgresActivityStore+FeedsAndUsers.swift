import FeedsCore
import Foundation
import Logging
import PostgresNIO

extension PostgresActivityStore {
    public func getOrCreateFeed(
        _ id: FeedID, creatorID: String?, by principal: Principal, visibility: FeedVisibility?, details: FeedDetails,
        logger: Logger
    ) async throws -> (feed: Feed, created: Bool) {
        let visibility = visibility?.rawValue
        // Reading a feed is the common case: one SELECT, and a write transaction only when it is missing.
        if let feed = try await storedFeed(id, logger: logger) { return (feed, false) }
        // Missing, or only not replayed yet: the primary decides, and has the new feed if any.
        ReadRoute.leaveReplica()
        if ReadRoute.current != nil, let feed = try await storedFeed(id, logger: logger) { return (feed, false) }
        guard let creatorID else {
            throw FeedsError.input("feed \(id.description) does not exist; name user_id to create it", field: "user_id")
        }
        try FeedPermissions.checkCreate(id, by: principal)
        let created: Bool = try await client.transaction(logger: logger) { connection in
            try await Self.ensureUser(creatorID, on: connection, logger: logger)
            let inserted = try await connection.query(
                """
                INSERT INTO feeds (fid, group_id, feed_id, created_by, visibility, name, description, custom)
                VALUES (\(id.description), \(id.group), \(id.id), \(creatorID),
                    COALESCE(\(visibility)::text, (SELECT default_visibility FROM feed_groups WHERE id = \(id.group)), 'visible'),
                    \(details.name ?? ""),
                    \(details.description ?? ""), \(JSONText.encode(details.custom ?? [:]))::jsonb)
                ON CONFLICT (fid) DO NOTHING RETURNING fid
                """,
                logger: logger
            )
            var created = false
            for try await _ in inserted { created = true }
            return created
        }
        guard let feed = try await storedFeed(id, logger: logger) else {
            throw FeedsError(.internal, "feed \(id.description) vanished after it was created")
        }
        return (feed, created)
    }

    public func updateFeed(_ id: FeedID, _ details: FeedDetails, by userID: String?, logger: Logger) async throws -> Feed {
        // Its owner, the server, or a member the app lets change it (`FeedManaged`).
        var bind = SQLBinds()
        let user = try bind(userID)
        let sql = """
            UPDATE feeds f SET name = COALESCE(\(try bind(details.name)), name),
                description = COALESCE(\(try bind(details.description)), description),
                custom = COALESCE(\(try bind(details.custom.map { JSONText.encode($0) }))::jsonb, custom), updated_at = now()
            WHERE f.fid = \(try bind(id.description))
                AND (\(user)::text IS NULL OR f.created_by = \(user) OR \(FeedManaged.predicate(.update, feed: "f", user: user)))
            RETURNING fid
            """
        let rows = try await client.query(bind.query(sql), logger: logger)
        var updated = false
        for try await _ in rows { updated = true }
        guard let feed = try await storedFeed(id, logger: logger) else { throw FeedsError.notFound("feed \(id) does not exist") }
        guard updated else {
            throw FeedsError.notAllowed(
                "\(userID ?? "") may update only their own feeds (or those the app lets their members change); "
                    + "\(id) is \(feed.createdBy.id)'s")
        }
        return feed
    }

    /// A feed and its creator.
    private func storedFeed(_ id: FeedID, logger: Logger) async throws -> Feed? {
        for try await feed in try await preparedReads.execute(StoredFeed(id: id), logger: logger) { return feed }
        return nil
    }

    /// A stored user, or nil.
    func storedUser(_ id: String, logger: Logger) async throws -> User? {
        let rows = try await reads.query(
            "SELECT \(unescaped: UserRow.columns) FROM users WHERE id = \(id)", logger: logger)
        return try await UserRow.users(rows).first
    }

    public func upsertUsers(_ users: [UserInput], logger: Logger) async throws -> [User] {
        try await client.transaction(logger: logger) { connection in
            var stored: [User] = []
            for user in users { stored += try await Self.write(user, on: connection, logger: logger) }
            return stored
        }
    }

    public func createUser(_ user: UserInput, logger: Logger) async throws -> User? {
        let rows = try await client.query(
            """
            INSERT INTO users (id, name, image, role, language, teams, custom)
            VALUES (\(user.id), \(user.name), \(user.image), \(user.role ?? "user"), \(user.language ?? ""),
                    \(user.teams ?? []), \(JSONText.encode(user.custom ?? [:]))::jsonb)
            ON CONFLICT (id) DO NOTHING
            RETURNING \(unescaped: UserRow.columns)
            """,
            logger: logger)
        return try await UserRow.users(rows).first
    }

    public func updateUsersPartial(_ patches: [UserPatch], logger: Logger) async throws -> [User] {
        try await client.transaction(logger: logger) { connection in
            // Locked in id order, as every writer of several users takes them, so two never wait on each other.
            let ids = Array(Set(patches.map(\.id))).sorted()
            let rows = try await connection.query(
                "SELECT \(unescaped: UserRow.columns) FROM users WHERE id = ANY(\(ids)) ORDER BY id FOR UPDATE", logger: logger)
            var users = Dictionary(uniqueKeysWithValues: try await UserRow.users(rows).map { ($0.id, $0) })
            var order: [String] = []
            for (index, patch) in patches.enumerated() {
                guard let user = users[patch.id] else { throw FeedsError.notFound("user \(patch.id) does not exist") }
                let input = try patch.applied(to: user, field: "users[\(index)].")
                users[patch.id] = try await Self.write(input, on: connection, logger: logger).first
                if !order.contains(patch.id) { order.append(patch.id) }
            }
            return order.compactMap { users[$0] }
        }
    }

    /// Writes every field of `user`, creating it when it is new.
    private static func write(_ user: UserInput, on connection: PostgresConnection, logger: Logger) async throws -> [User] {
        let rows = try await connection.query(
            """
            INSERT INTO users (id, name, image, role, language, teams, custom)
            VALUES (\(user.id), \(user.name), \(user.image), \(user.role ?? "user"), \(user.language ?? ""),
                    \(user.teams ?? []), \(JSONText.encode(user.custom ?? [:]))::jsonb)
            ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, image = EXCLUDED.image, role = EXCLUDED.role,
                language = EXCLUDED.language, teams = EXCLUDED.teams, custom = EXCLUDED.custom, updated_at = now()
            RETURNING \(unescaped: UserRow.columns)
            """,
            logger: logger)
        return try await UserRow.users(rows)
    }
}

/// A feed and its creator, read on every feed page: prepared.
struct StoredFeed: PostgresPreparedStatement {
    typealias Row = Feed
    static let name = "StoredFeed"
    static let sql = "SELECT \(FeedRow.columns) \(FeedRow.from) WHERE f.fid = $1"

    let id: FeedID

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(id.description)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Feed {
        var columns = RowReader(row)
        return try FeedRow.feed(&columns)
    }
}
