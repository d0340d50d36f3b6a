import FeedsCore
import Foundation
import Logging
import PostgresNIO

extension PostgresActivityStore {
    public func addReaction(
        _ input: ReactionInput, activityID: String, userID: String, by principal: Principal, notifying: ReactionNotification?,
        logger: Logger
    ) async throws -> (reaction: Reaction, activity: Activity, notified: NotificationTouch?) {
        let insert = InsertReaction<ActivityReactions>(
            objectID: activityID, activityID: activityID, userID: userID, input: input, reader: principal.userID)
        // The activity is read back on the insert's connection: that read proves the insert
        // committed, as `committed`'s round trip would.
        let query = ActivityQuery.one(activityID, viewer: principal, ownFieldsOf: userID)
        let made = try await ConflictRetry.run(logger: logger) {
            try await client.withConnection { connection -> (Reaction, Activity, NotificationTouch?)? in
                let written: (stored: InsertReaction<ActivityReactions>.Row, feed: String?)?
                if let notifying {
                    let statement = InsertNotifyingReaction(insert: insert, notification: notifying)
                    written = try await Self.first(statement, on: connection, logger: logger)
                } else {
                    written = try await Self.first(insert, on: connection, logger: logger).map { ($0, nil) }
                }
                guard let written else { return nil }
                let reaction = try await Self.withUser(written.stored, userID: userID, on: connection, logger: logger)
                guard let activity = try await queryActivities(query, on: connection, logger: logger).activities.first else {
                    throw FeedsError.notFound("activity \(activityID) does not exist")
                }
                let touch = written.feed.map { NotificationTouch(feed: $0, group: notifying?.group, activityID: activityID) }
                return (reaction, activity, touch)
            }
        }
        guard let made else {
            // Nothing written: the activity is not there for this reader, not theirs to react to,
            // or the user's types are full.
            try await readable(activityID, principal: principal, for: .engage, logger: logger)
            throw ReactionInput.tooManyTypes
        }
        return made
    }

    public func deleteReaction(
        type: String, activityID: String, userID: String, by principal: Principal, logger: Logger
    ) async throws -> (reaction: Reaction, activity: Activity) {
        try await readable(activityID, principal: principal, logger: logger)
        let removed = try await removeReaction(
            ActivityReactions.self, type: type, objectID: activityID, activityID: activityID, userID: userID, logger: logger)
        return (removed, try await activity(activityID, principal: principal, ownFieldsOf: userID, logger: logger))
    }

    public func addCommentReaction(
        _ input: ReactionInput, commentID: String, userID: String, by principal: Principal, logger: Logger
    ) async throws -> (reaction: Reaction, comment: Comment) {
        let comment = try await readableComment(commentID, principal: principal, logger: logger)
        let insert = InsertReaction<CommentReactions>(
            objectID: commentID, activityID: comment.activityID, userID: userID, input: input, reader: principal.userID)
        let stored = try await client.committed(logger: logger) { connection in
            try await Self.inserted(insert, userID: userID, on: connection, logger: logger)
        }
        guard let stored else {
            let comment = try await readableComment(commentID, principal: principal, logger: logger)
            try await readable(comment.activityID, principal: principal, for: .engage, logger: logger)
            throw ReactionInput.tooManyTypes
        }
        return (stored, try await readableComment(commentID, principal: principal, ownFieldsOf: userID, logger: logger))
    }

    /// Runs the insert; nil when it wrote nothing.
    static func inserted<Target: ReactionTable>(
        _ insert: InsertReaction<Target>, userID: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> Reaction? {
        guard let stored = try await first(insert, on: connection, logger: logger) else { return nil }
        return try await withUser(stored, userID: userID, on: connection, logger: logger)
    }

    /// The statement's last row; nil when it answered none.
    static func first<Statement: PostgresPreparedStatement>(
        _ statement: Statement, on connection: PostgresConnection, logger: Logger
    ) async throws -> Statement.Row? {
        var found: Statement.Row?
        for try await row in try await connection.execute(statement, logger: logger) { found = row }
        return found
    }

    /// The stored reaction with its user: one another request created meanwhile is read again on
    /// the same connection, whose next statement sees it.
    static func withUser(
        _ stored: (reaction: Reaction, userCreatedMeanwhile: Bool), userID: String, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> Reaction {
        var (reaction, meanwhile) = stored
        if meanwhile {
            let rows = try await connection.query(
                "SELECT \(unescaped: UserRow.columns) FROM users WHERE id = \(userID)", logger: logger)
            if let user = try await UserRow.users(rows).first { reaction.user = user }
        }
        return reaction
    }

    public func deleteCommentReaction(
        type: String, commentID: String, userID: String, by principal: Principal, logger: Logger
    ) async throws -> (reaction: Reaction, comment: Comment) {
        let comment = try await readableComment(commentID, principal: principal, logger: logger)
        let removed = try await removeReaction(
            CommentReactions.self, type: type, objectID: commentID, activityID: comment.activityID, userID: userID, logger: logger
        )
        return (removed, try await readableComment(commentID, principal: principal, ownFieldsOf: userID, logger: logger))
    }

    public func queryReactions(_ query: ReactionQuery, by principal: Principal, logger: Logger) async throws -> ReactionPage {
        // Each object asked of that the principal may read, with its activity (an activity is its own).
        var activityOf: [String: String] = [:]
        let (table, key): (String, String)
        if let batch = query.batch {
            if batch.ofComments {
                for comment in try await comments(ids: batch.ids, by: principal, ownFieldsOf: nil, leavesOutBlocked: false, logger: logger) {
                    activityOf[comment.id] = comment.activityID
                }
            } else {
                for id in try await readable(batch.ids, principal: principal, logger: logger) { activityOf[id] = id }
            }
            (table, key) = batch.ofComments ? (CommentReactions.table, CommentReactions.key) : (ActivityReactions.table, ActivityReactions.key)
        } else if let commentID = query.commentID {
            activityOf[commentID] = try await readableComment(commentID, principal: principal, logger: logger).activityID
            (table, key) = (CommentReactions.table, CommentReactions.key)
        } else {
            try await readable(query.activityID, principal: principal, logger: logger)
            activityOf[query.activityID] = query.activityID
            (table, key) = (ActivityReactions.table, ActivityReactions.key)
        }
        guard !activityOf.isEmpty else { return ReactionPage(reactions: [], next: nil) }
        let objects = activityOf.keys.sorted()
        var bind = SQLBinds()
        var sql = """
            SELECT \(EngagementColumns.micros("r.created_at")), r.user_id, r.\(key), r.type, r.custom::text, r.created_at,
                r.updated_at, \(UserRow.columns(alias: "u"))
            FROM \(table) r JOIN users u ON u.id = r.user_id
            """
        sql += objects.count == 1 ? " WHERE r.\(key) = \(try bind(objects[0]))" : " WHERE r.\(key) = ANY(\(try bind(objects)))"
        if let types = query.types { sql += " AND r.type = ANY(\(try bind(types)))" }
        if let users = query.userIDs { sql += " AND r.user_id = ANY(\(try bind(users)))" }
        if let reader = principal.userID { sql += " AND \(Unblocked.predicate("r.user_id", try bind(reader)))" }
        for bound in query.createdAt { sql += " AND r.created_at \(bound.comparison) \(try bind.time(bound.date))" }
        // A batch's order needs the object too: one user's reactions of a type to two objects may share a time.
        let order = query.page.ascending ? "ASC" : "DESC", batch = query.batch != nil
        let keys = batch ? "r.created_at, r.user_id, r.type, r.\(key)" : "r.created_at, r.user_id, r.type"
        if let cursor = query.page.cursor {
            sql += " AND (\(keys)) \(query.page.ascending ? ">" : "<") (\(try bind.time(microseconds: cursor.micros))"
            for value in cursor.keys { sql += ", \(try bind(value))" }
            sql += ")"
        }
        sql += " ORDER BY " + keys.split(separator: ",").map { "\($0) \(order)" }.joined(separator: ",")
        sql += " LIMIT \(try bind(query.page.limit + 1))"
        var rows: [(micros: Int64, user: String, object: String, reaction: Reaction)] = []
        for try await row in try await reads.query(bind.query(sql), logger: logger) {
            var columns = RowReader(row)
            let micros: Int64 = try columns.next(), user: String = try columns.next(), object: String = try columns.next()
            let comment = table == CommentReactions.table ? object : nil
            rows.append(
                (micros, user, object,
                 try ReactionRow.reaction(&columns, activityID: activityOf[object] ?? object, commentID: comment)))
        }
        let (page, next) = keysetPage(rows, limit: query.page.limit) {
            KeysetCursor(
                ascending: query.page.ascending, micros: $0.micros,
                keys: batch ? [$0.user, $0.reaction.type, $0.object] : [$0.user, $0.reaction.type])
        }
        return ReactionPage(reactions: page.map(\.reaction), next: next)
    }

    // MARK: - Parts

    /// Removes `userID`'s reaction of `type` from the object; not found when there is none.
    private func removeReaction<Target: ReactionTable>(
        _: Target.Type, type: String, objectID: String, activityID: String, userID: String, logger: Logger
    ) async throws -> Reaction {
        let removed: Reaction? = try await client.committed(logger: logger) { connection in
            var bind = SQLBinds()
            let sql = """
                WITH removed AS (
                    DELETE FROM \(Target.table)
                    WHERE \(Target.key) = \(try bind(objectID)) AND user_id = \(try bind(userID)) AND type = \(try bind(type))
                    RETURNING type, custom::text, created_at, updated_at, user_id
                )
                SELECT removed.type, removed.custom, removed.created_at, removed.updated_at, \(UserRow.columns(alias: "u"))
                FROM removed JOIN users u ON u.id = removed.user_id
                """
            for try await row in try await connection.query(bind.query(sql), logger: logger) {
                var columns = RowReader(row)
                return try ReactionRow.reaction(&columns, activityID: activityID, commentID: Target.isComment ? objectID : nil)
            }
            return nil
        }
        guard let removed else {
            throw FeedsError.notFound(
                "\(userID) has no \(type) reaction to \(Target.isComment ? "comment" : "activity") \(objectID)")
        }
        return removed
    }

    /// A live comment on an activity `principal` may read, with `ownFieldsOf`'s reactions; else not found.
    private func readableComment(_ id: String, principal: Principal, ownFieldsOf user: String? = nil, logger: Logger) async throws
        -> Comment
    {
        // A write's read-back, also its event: the whole counts.
        guard
            let comment = try await comments(ids: [id], by: principal, ownFieldsOf: user, leavesOutBlocked: false, logger: logger)
                .first
        else {
            throw FeedsError.notFound("comment \(id) does not exist")
        }
        return comment
    }

    /// The activity as `principal` reads it, with `ownFieldsOf`'s own reactions and bookmarks.
    func activity(_ id: String, principal: Principal, ownFieldsOf user: String, logger: Logger) async throws -> Activity {
        guard
            let activity = try await queryActivities(.one(id, viewer: principal, ownFieldsOf: user), logger: logger).activities
                .first
        else {
            throw FeedsError.notFound("activity \(id) does not exist")
        }
        return activity
    }

    /// Of `ids`, the live activities `principal` may read.
    private func readable(_ ids: [String], principal: Principal, logger: Logger) async throws -> [String] {
        var bind = SQLBinds()
        var sql = "SELECT a.id FROM activities a WHERE a.id = ANY(\(try bind(ids))) AND \(ActivityLive.predicate("a"))"
        if let user = principal.userID { sql += " AND \(ActivityReadable.predicate(activity: "a", user: try bind(user)))" }
        var found: [String] = []
        for try await id in try await reads.query(bind.query(sql), logger: logger).decode(String.self) { found.append(id) }
        return found
    }

    /// Refuses an activity that is deleted, missing, or not `principal`'s to read, as missing.
    /// With `.engage`, also one they read but may not react to, comment on or bookmark (403).
    func readable(_ id: String, principal: Principal, for action: FeedAction = .read, logger: Logger) async throws {
        if action == .engage, let user = principal.userID {
            let rows = try await reads.query(try Self.engagement(of: id, by: user), logger: logger).decode(Bool.self)
            for try await engageable in rows { return try Self.refuse(id, user, engageable: engageable) }
            throw FeedsError.notFound("activity \(id) does not exist")
        }
        var bind = SQLBinds()
        var sql = "SELECT 1 FROM activities a WHERE a.id = \(try bind(id)) AND \(ActivityLive.predicate("a"))"
        if let user = principal.userID { sql += " AND \(ActivityReadable.predicate(activity: "a", user: try bind(user)))" }
        for try await _ in try await reads.query(bind.query(sql), logger: logger) { return }
        throw FeedsError.notFound("activity \(id) does not exist")
    }

    /// On `connection`: refuses an activity `user` reads but may not engage with (403); returns
    /// when they may, or do not read it at all.
    static func engageable(_ id: String, user: String, on connection: PostgresConnection, logger: Logger) async throws {
        let rows = try await connection.query(try engagement(of: id, by: user), logger: logger).decode(Bool.self)
        for try await engageable in rows { try refuse(id, user, engageable: engageable) }
    }

    /// One row when the live activity is readable to `user`: whether they may engage with it
    /// (the app's grants for engaging, `ActivityReadable`'s `.engage`).
    private static func engagement(of id: String, by user: String) throws -> PostgresQuery {
        var bind = SQLBinds()
        let reader = try bind(user)
        let sql = """
            SELECT \(ActivityReadable.predicate(activity: "a", user: reader, for: .engage)) FROM activities a
            WHERE a.id = \(try bind(id)) AND \(ActivityLive.predicate("a")) AND \(ActivityReadable.predicate(activity: "a", user: reader))
            """
        return bind.query(sql)
    }

    private static func refuse(_ id: String, _ user: String, engageable: Bool) throws {
        guard !engageable else { return }
        throw FeedsError.notAllowed(
            "\(user) may read activity \(id) but not react to it, comment on it or bookmark it: "
                + "the app grants that to fewer readers of its feeds (UpdateFeedVisibility)")
    }
}
