import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `MemberStore` on PostgreSQL: `feed_members` rows, changed under the feed row's lock (taken
/// first, as every member change takes it: see LOCK-ORDER.md); the trigger keeps
/// `feeds.member_count`.
public struct PostgresMemberStore: MemberStore {
    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    public func updateMembers(
        _ feed: FeedID, _ operation: MemberOperation, _ members: [FeedMemberInput], by principal: Principal, logger: Logger
    ) async throws -> MemberChange {
        let inputs = Dictionary(members.map { ($0.userID, $0) }, uniquingKeysWith: { _, last in last })
            .values.sorted { $0.userID < $1.userID }
        return try await client.transaction(logger: logger) { connection in
            try await OwnedFeedLock.take(feed, by: principal, to: "change its members", on: connection, logger: logger)
            let before = try await Self.members(of: feed, users: nil, on: connection, logger: logger)
            let existing = Dictionary(before.map { ($0.user.id, $0) }, uniquingKeysWith: { first, _ in first })
            var removed: [String] = []
            let named = Set(inputs.map(\.userID))
            switch operation {
            case .remove: removed = inputs.map(\.userID).filter { existing[$0] != nil }
            case .set: removed = before.map(\.user.id).filter { !named.contains($0) }.sorted()
            case .upsert: break
            }
            if !removed.isEmpty {
                try await connection.query(
                    "DELETE FROM feed_members WHERE fid = \(feed.description) AND user_id = ANY(\(removed))", logger: logger)
            }
            guard operation != .remove, !inputs.isEmpty else { return MemberChange(added: [], updated: [], removedIDs: removed) }
            try await Self.checkLevels(inputs, on: connection, logger: logger)
            try await connection.query(
                "INSERT INTO users (id) SELECT unnest(\(inputs.map(\.userID))::text[]) ORDER BY 1 ON CONFLICT (id) DO NOTHING",
                logger: logger)
            for input in inputs {
                // An invite leaves a member a member; adding without one makes anyone a member.
                let status = input.invite ? (existing[input.userID]?.status == .member ? "member" : "pending") : "member"
                try await connection.query(
                    """
                    INSERT INTO feed_members (fid, user_id, role, status, custom, membership_level)
                    VALUES (\(feed.description), \(input.userID), \(input.role ?? FeedMember.defaultRole), \(status),
                        \(JSONText.encode(input.custom ?? [:]))::jsonb, NULLIF(\(input.membershipLevel), ''))
                    ON CONFLICT (fid, user_id) DO UPDATE SET
                        role = COALESCE(\(input.role), feed_members.role), status = EXCLUDED.status,
                        custom = CASE WHEN \(input.custom != nil) THEN EXCLUDED.custom ELSE feed_members.custom END,
                        membership_level = CASE WHEN \(input.membershipLevel != nil) THEN EXCLUDED.membership_level
                            ELSE feed_members.membership_level END,
                        updated_at = now()
                    """,
                    logger: logger)
            }
            let after = try await Self.members(of: feed, users: inputs.map(\.userID), on: connection, logger: logger)
            return MemberChange(
                added: after.filter { existing[$0.user.id] == nil }, updated: after.filter { existing[$0.user.id] != nil },
                removedIDs: removed)
        }
    }

    public func answerInvite(_ feed: FeedID, user: String, accept: Bool, logger: Logger) async throws -> FeedMember {
        try await client.transaction(logger: logger) { connection in
            let rows = try await connection.query(
                """
                UPDATE feed_members SET status = \(accept ? "member" : "rejected"), updated_at = now(),
                    invite_accepted_at = CASE WHEN \(accept) THEN now() END,
                    invite_rejected_at = CASE WHEN \(accept) THEN NULL ELSE now() END
                WHERE fid = \(feed.description) AND user_id = \(user) AND status = 'pending'
                RETURNING user_id
                """,
                logger: logger)
            var answered = false
            for try await _ in rows { answered = true }
            guard answered, let member = try await Self.members(of: feed, users: [user], on: connection, logger: logger).first
            else { throw FeedsError.conflict("\(user) has no pending invite to \(feed)") }
            return member
        }
    }

    public func queryMembers(_ query: MemberQuery, logger: Logger) async throws -> MemberPage {
        var bind = SQLBinds()
        let order = query.page.ascending ? "ASC" : "DESC"
        var sql =
            "SELECT \(Self.columns) FROM feed_members m JOIN users u ON u.id = m.user_id WHERE m.fid = \(try bind(query.feed.description))"
        if let ids = query.userIDs { sql += " AND m.user_id = ANY(\(try bind(ids)))" }
        if let roles = query.roles { sql += " AND m.role = ANY(\(try bind(roles)))" }
        if let statuses = query.statuses { sql += " AND m.status = ANY(\(try bind(statuses.map(\.rawValue))))" }
        if let cursor = query.page.cursor {
            let comparison = query.page.ascending ? ">" : "<"
            sql +=
                " AND (m.created_at, m.user_id) \(comparison) (\(try bind.time(microseconds: cursor.micros)), \(try bind(cursor.keys[0])))"
        }
        sql += " ORDER BY m.created_at \(order), m.user_id \(order) LIMIT \(query.page.limit + 1)"
        var members = try await Self.decode(try await reads.query(bind.query(sql), logger: logger), feed: query.feed)
        let more = members.count > query.page.limit
        if more { members.removeLast() }
        return MemberPage(members: members, next: more ? members.last.map(query.cursor(after:)) : nil)
    }

    static let columns = """
        m.role, m.status, m.custom::text, m.created_at, m.updated_at, m.invite_accepted_at, m.invite_rejected_at,
        \(LevelJSON.ofMember), \(UserRow.columns(alias: "u"))
        """

    /// The levels the inputs give must exist: a 400 names the first that does not.
    static func checkLevels(_ inputs: [FeedMemberInput], on connection: PostgresConnection, logger: Logger) async throws {
        let asked = Set(inputs.compactMap(\.membershipLevel).filter { !$0.isEmpty })
        guard !asked.isEmpty else { return }
        var found = Set<String>()
        let rows = try await connection.query(
            "SELECT id FROM membership_levels WHERE id = ANY(\(Array(asked)))", logger: logger)
        for try await id in rows.decode(String.self) { found.insert(id) }
        if let missing = asked.subtracting(found).sorted().first {
            throw FeedsError.input("membership level \(missing) does not exist", field: "members.membership_level")
        }
    }

    /// The feed's members (those of `users` only, when given), oldest membership first.
    static func members(of feed: FeedID, users: [String]?, on connection: PostgresConnection, logger: Logger) async throws
        -> [FeedMember]
    {
        let rows = try await connection.query(
            """
            SELECT \(unescaped: columns) FROM feed_members m JOIN users u ON u.id = m.user_id
            WHERE m.fid = \(feed.description) AND (\(users == nil) OR m.user_id = ANY(\(users ?? [])))
            ORDER BY m.created_at, m.user_id
            """,
            logger: logger)
        return try await decode(rows, feed: feed)
    }

    static func decode(_ rows: PostgresRowSequence, feed: FeedID) async throws -> [FeedMember] {
        var members: [FeedMember] = []
        for try await row in rows {
            var columns = RowReader(row)
            members.append(try member(&columns, feed: feed))
        }
        return members
    }

    /// One member from `columns`' next columns (`columns` above).
    static func member(_ columns: inout RowReader, feed: FeedID) throws -> FeedMember {
        let role: String = try columns.next(), status: String = try columns.next()
        let custom = try JSONText.object(try columns.next())
        let created: Date = try columns.next(), updated: Date = try columns.next()
        let accepted: Date? = try columns.next(), rejected: Date? = try columns.next()
        let level = try (try columns.next() as String?).map(LevelJSON.level)
        return FeedMember(
            feed: feed, user: try UserRow.user(&columns), role: role, status: FeedMember.Status(rawValue: status) ?? .member,
            custom: custom, createdAt: created, updatedAt: updated, inviteAcceptedAt: accepted, inviteRejectedAt: rejected,
            membershipLevel: level)
    }
}
