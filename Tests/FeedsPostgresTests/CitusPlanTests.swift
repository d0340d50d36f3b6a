import FeedsTestSupport
import PostgresNIO
import Testing

/// The schema against the plan for Citus in docs/scaling.md: every table has a placement, and no
/// key or foreign key breaks Citus's rules for it, beyond the breaks the plan lists with their
/// cutover. A new table, key or reference that Citus would refuse fails here, when it is written.
@Suite struct CitusPlanTests {
    enum Placement: Equatable {
        /// Sharded by `column`; tables of one `group` are co-located, shard by shard.
        case distributed(group: String, column: String)
        /// Copied whole to every node: small, read everywhere, rarely written.
        case reference
        /// Left on the coordinator: queues that one node drains.
        case local
    }

    static let plan: [String: Placement] = [
        // A feed and what hangs off it: pages, follows out of it, members, pins, notifications.
        "feeds": .distributed(group: "feed", column: "fid"),
        "activity_feeds": .distributed(group: "feed", column: "feed"),
        "follows": .distributed(group: "feed", column: "source_fid"),
        "feed_members": .distributed(group: "feed", column: "fid"),
        "activity_pins": .distributed(group: "feed", column: "fid"),
        "notification_groups": .distributed(group: "feed", column: "feed"),
        "notifications": .distributed(group: "feed", column: "feed"),
        "notification_status": .distributed(group: "feed", column: "feed"),
        // An activity and what hangs off it: files, reactions, bookmarks, comments, story views.
        "activities": .distributed(group: "activity", column: "id"),
        "attachments": .distributed(group: "activity", column: "activity_id"),
        "activity_reactions": .distributed(group: "activity", column: "activity_id"),
        "bookmarks": .distributed(group: "activity", column: "activity_id"),
        "comments": .distributed(group: "activity", column: "activity_id"),
        "comment_attachments": .distributed(group: "activity", column: "activity_id"),
        "comment_reactions": .distributed(group: "activity", column: "activity_id"),
        "watched_activities": .distributed(group: "activity", column: "activity_id"),
        "activity_feedback": .distributed(group: "activity", column: "activity_id"),
        // A poll, its options and votes.
        "polls": .distributed(group: "poll", column: "id"),
        "poll_options": .distributed(group: "poll", column: "poll_id"),
        "poll_votes": .distributed(group: "poll", column: "poll_id"),
        // What belongs to one user.
        "bookmark_folders": .distributed(group: "user", column: "user_id"),
        "user_blocks": .distributed(group: "user", column: "user_id"),
        "devices": .distributed(group: "user", column: "user_id"),
        "push_preferences": .distributed(group: "user", column: "user_id"),
        "user_name_words": .distributed(group: "user", column: "user_id"),
        "idempotency_keys": .distributed(group: "user", column: "principal"),
        "link_previews": .distributed(group: "url", column: "url"),
        // Read by every shard's joins (users), or settings and records the app has few of.
        "users": .reference,
        "cdn_objects": .reference,
        "feed_groups": .reference,
        "feed_grants": .reference,
        "feed_views": .reference,
        "membership_levels": .reference,
        "app_settings": .reference,
        "app_settings_audit": .reference,
        "admin_sessions": .reference,
        "gc_runs": .reference,
        "sweep_lease": .reference,
        "tasks": .reference,
        "schema_migrations": .reference,
        // Queues, drained by the nodes through the coordinator.
        "fanout_jobs": .local,
        "realtime_events": .local,
        "webhook_outbox": .local,
        "webhook_lanes": .local,
    ]

    /// What today's schema does that Citus would refuse, each with its change at the cutover
    /// (docs/scaling.md, "What the cutover changes"). The test fails when one is fixed (strike it)
    /// or a new one appears (fix it, or plan it here and there).
    static let knownBreaks: Set<String> = [
        // Comments are keyed by their own id; at the cutover by (activity_id, id), and their
        // files, reactions and bookmarks carry activity_id.
        "comments: unique index comments_pkey (id) lacks activity_id",
        "comment_attachments: unique index comment_attachments_pkey (comment_id, position) lacks activity_id",
        "comment_reactions: unique index comment_reactions_pkey (comment_id, user_id, type) lacks activity_id",
        "comments: foreign key to comments (parent_id) is not on the distribution columns",
        "comment_attachments: foreign key to comments (comment_id) is not on the distribution columns",
        "comment_reactions: foreign key to comments (comment_id) is not on the distribution columns",
        "bookmarks: foreign key to comments (comment_id) is not on the distribution columns",
        // A bookmark folder is keyed by its own id; at the cutover by (user_id, id), and the
        // bookmark's folder is checked by the write that files it.
        "bookmark_folders: unique index bookmark_folders_pkey (id) lacks user_id",
        "bookmarks: foreign key to bookmark_folders crosses from group activity to group user",
        // A device is keyed by its push token; at the cutover by (user_id, id), and a token that
        // moves to another user is deleted from the first's shard by the write that moves it.
        "devices: unique index devices_pkey (id) lacks user_id",
        // A notification is keyed by its own id; at the cutover by (feed, id).
        "notifications: unique index notifications_pkey (id) lacks feed",
        // References across groups become checks in the write that makes them, and the deletes
        // that cascade today become the same statements run per group.
        "activity_feeds: foreign key to activities crosses from group feed to group activity",
        "activity_pins: foreign key to activities crosses from group feed to group activity",
        "activities: foreign key to polls crosses from group activity to group poll",
        "follows: foreign key to feeds (target_fid) is not on the distribution columns",
    ]

    @Test func everyTableKeepsCitussRulesForItsPlannedPlacement() async throws {
        try await TestDatabase.with(migrated: true) { _, client in
            let schema = try await Schema.read(client)
            #expect(Set(schema.tables).subtracting(Self.plan.keys).sorted() == [], "tables with no placement in the plan")
            #expect(Set(Self.plan.keys).subtracting(schema.tables).sorted() == [], "planned tables that do not exist")
            let breaks = Set(Self.breaks(of: schema))
            #expect(breaks.subtracting(Self.knownBreaks).sorted() == [], "new breaks of Citus's rules")
            #expect(Self.knownBreaks.subtracting(breaks).sorted() == [], "listed breaks that are gone: strike them")
        }
    }

    /// The rules the checker holds tables to, shown on made-up tables.
    @Test func theRulesCatchWhatCitusRefuses() {
        let schema = Schema(
            tables: ["a", "b", "r"],
            uniqueIndexes: [
                .init(table: "a", name: "a_pkey", columns: ["id"]),
                .init(table: "b", name: "b_pkey", columns: ["id"]),
                .init(table: "b", name: "b_key", columns: ["a_id", "n"]),
            ],
            foreignKeys: [
                .init(table: "b", columns: ["a_id"], referenced: "a", referencedColumns: ["id"]),
                .init(table: "b", columns: ["other"], referenced: "a", referencedColumns: ["id"]),
                .init(table: "r", columns: ["a_id"], referenced: "a", referencedColumns: ["id"]),
                .init(table: "a", columns: ["r_id"], referenced: "r", referencedColumns: ["id"]),
            ])
        let plan: [String: Placement] = [
            "a": .distributed(group: "g", column: "id"), "b": .distributed(group: "g", column: "a_id"), "r": .reference,
        ]
        #expect(
            Self.breaks(of: schema, plan: plan).sorted() == [
                "b: foreign key to a (other) is not on the distribution columns",
                "b: unique index b_pkey (id) lacks a_id",
                "r: a reference table's foreign key to a, which is distributed",
            ])
    }

    // MARK: - The rules

    static func breaks(of schema: Schema, plan: [String: Placement] = plan) -> [String] {
        var found: [String] = []
        for index in schema.uniqueIndexes {
            guard case .distributed(_, let column) = plan[index.table], !index.columns.contains(column) else { continue }
            found.append("\(index.table): unique index \(index.name) (\(index.columns.joined(separator: ", "))) lacks \(column)")
        }
        for key in schema.foreignKeys {
            guard let from = plan[key.table], let to = plan[key.referenced] else { continue }
            switch (from, to) {
            case (.distributed(let group, let column), .distributed(let otherGroup, let otherColumn)):
                if group != otherGroup {
                    found.append(
                        "\(key.table): foreign key to \(key.referenced) crosses from group \(group) to group \(otherGroup)")
                } else if !zip(key.columns, key.referencedColumns).contains(where: { $0 == (column, otherColumn) }) {
                    found.append(
                        "\(key.table): foreign key to \(key.referenced) (\(key.columns.joined(separator: ", "))) is not on the distribution columns"
                    )
                }
            case (.distributed, .reference), (.reference, .reference), (.local, .reference), (.local, .local):
                continue
            case (.reference, .distributed), (.reference, .local):
                found.append(
                    "\(key.table): a reference table's foreign key to \(key.referenced), which is \(to == .local ? "local" : "distributed")"
                )
            case (.distributed, .local), (.local, .distributed):
                found.append("\(key.table): foreign key to \(key.referenced) between a local and a distributed table")
            }
        }
        return found
    }

    /// The parts of the live schema Citus's rules are about.
    struct Schema {
        struct UniqueIndex {
            let table: String, name: String, columns: [String]
        }
        struct ForeignKey {
            let table: String, columns: [String], referenced: String, referencedColumns: [String]
        }
        let tables: [String]
        let uniqueIndexes: [UniqueIndex]
        let foreignKeys: [ForeignKey]

        static func read(_ client: PostgresClient) async throws -> Schema {
            let logger = TestDatabase.logger
            var tables: [String] = []
            for try await name in try await client.query(
                "SELECT relname::text FROM pg_class WHERE relkind IN ('r', 'p') AND relnamespace = 'public'::regnamespace",
                logger: logger
            ).decode(String.self) {
                tables.append(name)
            }
            // Unique indexes, the primary keys' included; an expression's column counts as none.
            var indexes: [UniqueIndex] = []
            for try await (table, name, columns) in try await client.query(
                """
                SELECT t.relname::text, i.relname::text,
                    ARRAY(SELECT a.attname::text FROM unnest(x.indkey) WITH ORDINALITY k(attnum, n)
                          JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n)
                FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
                WHERE x.indisunique AND t.relnamespace = 'public'::regnamespace
                """, logger: logger
            ).decode((String, String, [String]).self) {
                indexes.append(UniqueIndex(table: table, name: name, columns: columns))
            }
            var keys: [ForeignKey] = []
            for try await (table, columns, referenced, referencedColumns) in try await client.query(
                """
                SELECT t.relname::text,
                    ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(attnum, n)
                          JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.n),
                    r.relname::text,
                    ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(attnum, n)
                          JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.n)
                FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
                WHERE c.contype = 'f' AND t.relnamespace = 'public'::regnamespace
                """, logger: logger
            ).decode((String, [String], String, [String]).self) {
                keys.append(
                    ForeignKey(table: table, columns: columns, referenced: referenced, referencedColumns: referencedColumns))
            }
            return Schema(tables: tables, uniqueIndexes: indexes, foreignKeys: keys)
        }
    }
}
