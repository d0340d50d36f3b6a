import FeedsCore
import Foundation
import Logging
import PostgresNIO

extension PostgresActivityStore {
    public func addBookmark(
        _ object: BookmarkObject, userID: String, folder: FolderChoice, custom: JSONObject, by principal: Principal,
        logger: Logger
    ) async throws -> (bookmark: Bookmark, activity: Activity) {
        let (activityID, commentID) = try await readable(object, principal: principal, for: .engage, logger: logger)
        let folderID: String? = try await client.transaction(logger: logger) { connection in
            try await Self.ensureUser(userID, on: connection, logger: logger)
            let folderID = try await Self.folder(folder, of: userID, on: connection, logger: logger)
            try await connection.query(
                """
                INSERT INTO bookmarks (activity_id, comment_id, user_id, folder_id, custom)
                VALUES (\(activityID), \(commentID), \(userID), \(folderID), \(JSONText.encode(custom))::jsonb)
                ON CONFLICT (activity_id, user_id, (COALESCE(comment_id, '')), (COALESCE(folder_id, ''))) DO UPDATE
                SET custom = EXCLUDED.custom,
                    updated_at = CASE WHEN bookmarks.custom = EXCLUDED.custom THEN bookmarks.updated_at ELSE now() END
                """, logger: logger)
            return folderID
        }
        return try await bookmarkAndActivity(object, activityID, userID, folderID, principal: principal, logger: logger)
    }

    public func updateBookmark(
        _ object: BookmarkObject, userID: String, folderID: String?, move: FolderChoice?, custom: JSONObject?,
        by principal: Principal, logger: Logger
    ) async throws -> (bookmark: Bookmark, activity: Activity) {
        let (activityID, commentID) = try await readable(object, principal: principal, for: .read, logger: logger)
        let (current, comment) = (folderID ?? "", commentID ?? "")
        let moved: String? = try await client.transaction(logger: logger) { connection in
            // The bookmark first: a missing one is 404 before any folder is made for it.
            let found = try await connection.query(
                """
                SELECT 1 FROM bookmarks
                WHERE activity_id = \(activityID) AND user_id = \(userID) AND COALESCE(comment_id, '') = \(comment)
                    AND COALESCE(folder_id, '') = \(current) FOR UPDATE
                """, logger: logger
            ).collect()
            guard !found.isEmpty else { throw Self.noBookmark(object, userID, folderID) }
            var target = folderID
            if let move { target = try await Self.folder(move, of: userID, on: connection, logger: logger) }
            do {
                let rows = try await connection.query(
                    """
                    UPDATE bookmarks SET folder_id = \(target), custom = COALESCE(\(custom.map(JSONText.encode))::jsonb, custom),
                        updated_at = now()
                    WHERE activity_id = \(activityID) AND user_id = \(userID) AND COALESCE(comment_id, '') = \(comment)
                        AND COALESCE(folder_id, '') = \(current)
                    RETURNING 1
                    """, logger: logger)
                for try await _ in rows { return target }
            } catch let error as PSQLError where error.isUniqueViolation(of: "bookmarks_key") {
                throw FeedsError.conflict("\(Self.name(object)) is bookmarked in that folder already", field: "new_folder_id")
            }
            throw Self.noBookmark(object, userID, folderID)
        }
        return try await bookmarkAndActivity(object, activityID, userID, moved, principal: principal, logger: logger)
    }

    public func deleteBookmark(_ object: BookmarkObject, userID: String, folderID: String?, by principal: Principal, logger: Logger)
        async throws -> (bookmark: Bookmark, activity: Activity)
    {
        let (activityID, commentID) = try await readable(object, principal: principal, for: .read, logger: logger)
        var found = try await bookmark(object, activityID, userID, folderID, logger: logger)
        let removed = try await client.committed(logger: logger) { connection in
            let rows = try await connection.query(
                """
                DELETE FROM bookmarks
                WHERE activity_id = \(activityID) AND user_id = \(userID) AND COALESCE(comment_id, '') = \(commentID ?? "")
                    AND COALESCE(folder_id, '') = \(folderID ?? "")
                RETURNING 1
                """, logger: logger)
            for try await _ in rows { return true }
            return false
        }
        guard removed else { throw Self.noBookmark(object, userID, folderID) }
        if let commentID { found.comment = try await comment(id: commentID, by: principal, ownFieldsOf: userID, logger: logger) }
        return (found, try await activity(activityID, principal: principal, ownFieldsOf: userID, logger: logger))
    }

    public func queryBookmarks(_ query: BookmarkQuery, by principal: Principal, logger: Logger) async throws -> BookmarkPage {
        var bind = SQLBinds()
        var sql = """
            SELECT \(EngagementColumns.micros("b.created_at")), COALESCE(b.comment_id, ''), COALESCE(b.folder_id, ''),
                \(BookmarkRow.columns) WHERE true
            """
        // A user sees only their own bookmarks.
        if let user = principal.userID { sql += " AND b.user_id = \(try bind(user))" }
        if let users = query.userIDs { sql += " AND b.user_id = ANY(\(try bind(users)))" }
        if let ids = query.activityIDs { sql += " AND b.activity_id = ANY(\(try bind(ids)))" }
        if let ids = query.objectIDs { sql += " AND COALESCE(b.comment_id, b.activity_id) = ANY(\(try bind(ids)))" }
        if let ofComments = query.ofComments { sql += ofComments ? " AND b.comment_id IS NOT NULL" : " AND b.comment_id IS NULL" }
        if let folders = query.folderIDs { sql += " AND b.folder_id = ANY(\(try bind(folders)))" }
        for bound in query.createdAt { sql += " AND b.created_at \(bound.comparison) \(try bind.time(bound.date))" }
        let order = query.page.ascending ? "ASC" : "DESC"
        if let cursor = query.page.cursor {
            sql += " AND (b.created_at, b.activity_id, COALESCE(b.comment_id, ''), COALESCE(b.folder_id, ''))"
            sql += " \(query.page.ascending ? ">" : "<") (\(try bind.time(microseconds: cursor.micros)),"
            sql += " \(try bind(cursor.keys[0])), \(try bind(cursor.keys[1])), \(try bind(cursor.keys[2])))"
        }
        sql += " ORDER BY b.created_at \(order), b.activity_id \(order), COALESCE(b.comment_id, '') \(order),"
        sql += " COALESCE(b.folder_id, '') \(order) LIMIT \(try bind(query.page.limit + 1))"
        var rows: [(micros: Int64, comment: String, folder: String, bookmark: Bookmark)] = []
        for try await row in try await reads.query(bind.query(sql), logger: logger) {
            var columns = RowReader(row)
            let micros: Int64 = try columns.next(), comment: String = try columns.next(), folder: String = try columns.next()
            rows.append((micros, comment, folder, try BookmarkRow.bookmark(&columns)))
        }
        var (page, next) = keysetPage(rows, limit: query.page.limit) {
            KeysetCursor(ascending: query.page.ascending, micros: $0.micros, keys: [$0.bookmark.activityID, $0.comment, $0.folder])
        }
        // Each with its activity as the bookmark's owner reads it; one no longer readable (deleted,
        // made private) is left out of the page.
        var (activities, comments): ([String: Activity], [String: Comment]) = ([:], [:])
        for (user, bookmarks) in Dictionary(grouping: page.map(\.bookmark), by: \.user.id) {
            let viewer: Principal = principal.userID == nil ? .server : .user(user)
            var read = ActivityQuery(viewer: viewer, limit: ActivityQuery.maxLimit)
            read.ids = Array(Set(bookmarks.map(\.activityID)))
            read.ownFieldsOf = user
            read.leavesOutBlocked = true
            for activity in try await queryActivities(read, logger: logger).activities {
                activities[user + "\u{0}" + activity.id] = activity
            }
            let commentIDs = Array(Set(bookmarks.compactMap(\.commentID)))
            if commentIDs.isEmpty { continue }
            for comment in try await self.comments(ids: commentIDs, by: viewer, ownFieldsOf: user, leavesOutBlocked: true, logger: logger) {
                comments[user + "\u{0}" + comment.id] = comment
            }
        }
        for index in page.indices {
            if let id = page[index].bookmark.commentID { page[index].bookmark.comment = comments[page[index].bookmark.user.id + "\u{0}" + id] }
        }
        return BookmarkPage(
            bookmarks: page.compactMap { row in
                // A comment's bookmark whose comment is gone (deleted) is left out too.
                if row.bookmark.commentID != nil, row.bookmark.comment == nil { return nil }
                return activities[row.bookmark.user.id + "\u{0}" + row.bookmark.activityID].map { (row.bookmark, $0) }
            }, next: next)
    }

    public func queryBookmarkFolders(_ query: BookmarkFolderQuery, by principal: Principal, logger: Logger) async throws
        -> BookmarkFolderPage
    {
        var bind = SQLBinds()
        var sql = """
            SELECT \(EngagementColumns.micros("bf.created_at")), bf.id, bf.name, bf.custom::text, bf.created_at, bf.updated_at,
                \(UserRow.columns(alias: "u"))
            FROM bookmark_folders bf JOIN users u ON u.id = bf.user_id WHERE true
            """
        if let user = principal.userID { sql += " AND bf.user_id = \(try bind(user))" }
        if let users = query.userIDs { sql += " AND bf.user_id = ANY(\(try bind(users)))" }
        if let names = query.names { sql += " AND bf.name = ANY(\(try bind(names)))" }
        for bound in query.createdAt { sql += " AND bf.created_at \(bound.comparison) \(try bind.time(bound.date))" }
        let order = query.page.ascending ? "ASC" : "DESC"
        if let cursor = query.page.cursor {
            sql += " AND (bf.created_at, bf.id) \(query.page.ascending ? ">" : "<")"
            sql += " (\(try bind.time(microseconds: cursor.micros)), \(try bind(cursor.keys[0])))"
        }
        sql += " ORDER BY bf.created_at \(order), bf.id \(order) LIMIT \(try bind(query.page.limit + 1))"
        var rows: [(micros: Int64, folder: BookmarkFolder)] = []
        for try await row in try await reads.query(bind.query(sql), logger: logger) {
            var columns = RowReader(row)
            let micros: Int64 = try columns.next()
            rows.append((micros, try BookmarkRow.folder(&columns)))
        }
        let (page, next) = keysetPage(rows, limit: query.page.limit) {
            KeysetCursor(ascending: query.page.ascending, micros: $0.micros, keys: [$0.folder.id])
        }
        return BookmarkFolderPage(folders: page.map(\.folder), next: next)
    }

    public func updateBookmarkFolder(id: String, name: String?, custom: JSONObject?, by principal: Principal, logger: Logger)
        async throws -> BookmarkFolder
    {
        do {
            let rows = try await client.committed(logger: logger) { connection in
                try await connection.query(
                    """
                    WITH changed AS (
                        UPDATE bookmark_folders SET name = COALESCE(\(name), name),
                            custom = COALESCE(\(custom.map(JSONText.encode))::jsonb, custom), updated_at = now()
                        WHERE id = \(id) AND (\(principal.userID)::text IS NULL OR user_id = \(principal.userID))
                        RETURNING *
                    )
                    SELECT c.id, c.name, c.custom::text, c.created_at, c.updated_at, \(unescaped: UserRow.columns(alias: "u"))
                    FROM changed c JOIN users u ON u.id = c.user_id
                    """, logger: logger
                ).collect()
            }
            guard let row = rows.first else { throw FeedsError.notFound("bookmark folder \(id) does not exist") }
            var columns = RowReader(row)
            return try BookmarkRow.folder(&columns)
        } catch let error as PSQLError where error.isUniqueViolation(of: "bookmark_folders_user_id_name_key") {
            throw FeedsError.conflict("a bookmark folder named \(name ?? "") exists already", field: "name")
        }
    }

    public func deleteBookmarkFolder(id: String, by principal: Principal, logger: Logger) async throws {
        let deleted = try await client.committed(logger: logger) { connection in
            try await connection.query(
                """
                DELETE FROM bookmark_folders WHERE id = \(id) AND (\(principal.userID)::text IS NULL OR user_id = \(principal.userID))
                RETURNING 1
                """, logger: logger
            ).collect()
        }
        guard !deleted.isEmpty else { throw FeedsError.notFound("bookmark folder \(id) does not exist") }
    }

    // MARK: - Parts

    /// The id of the folder a bookmark goes to: nil for none; an existing one of the user's, or
    /// a new one (an existing one of that name).
    private static func folder(_ choice: FolderChoice, of userID: String, on connection: PostgresConnection, logger: Logger)
        async throws -> String?
    {
        switch choice {
        case .none:
            return nil
        case .existing(let id):
            let rows = try await connection.query(
                "SELECT id FROM bookmark_folders WHERE id = \(id) AND user_id = \(userID) FOR SHARE", logger: logger)
            for try await id in rows.decode(String.self) { return id }
            throw FeedsError.notFound("bookmark folder \(id) does not exist")
        case .new(let name, let custom):
            // A new folder only while the user has fewer than `BookmarkFolder.maxPerUser` (requests
            // racing may pass it by at most the pool's connections: bounded either way).
            let rows = try await connection.query(
                """
                WITH made AS (
                    INSERT INTO bookmark_folders (id, user_id, name, custom)
                    SELECT \(UUID().lowercasedString), \(userID), \(name), \(JSONText.encode(custom))::jsonb
                    WHERE (SELECT count(*) FROM bookmark_folders WHERE user_id = \(userID)) < \(BookmarkFolder.maxPerUser)
                    ON CONFLICT (user_id, name) DO NOTHING RETURNING id
                )
                SELECT id FROM made UNION ALL SELECT id FROM bookmark_folders WHERE user_id = \(userID) AND name = \(name)
                """, logger: logger)
            for try await id in rows.decode(String.self) { return id }
            throw FeedsError.input(
                "a user keeps at most \(BookmarkFolder.maxPerUser) bookmark folders; delete one first", field: "new_folder")
        }
    }

    /// The activity a bookmark of `object` hangs on, and the comment if it is one: 404 unless the
    /// principal may read it; 403 for a new bookmark (`.engage`) when the app does not grant it.
    private func readable(_ object: BookmarkObject, principal: Principal, for action: FeedAction, logger: Logger) async throws
        -> (activityID: String, commentID: String?)
    {
        switch object {
        case .activity(let id):
            try await readable(id, principal: principal, for: action, logger: logger)
            return (id, nil)
        case .comment(let id):
            guard let comment = try await comment(id: id, by: principal, ownFieldsOf: nil, logger: logger) else {
                throw FeedsError.notFound("comment \(id) does not exist")
            }
            if action == .engage { try await readable(comment.activityID, principal: principal, for: action, logger: logger) }
            return (comment.activityID, id)
        }
    }

    private func bookmark(_ object: BookmarkObject, _ activityID: String, _ userID: String, _ folderID: String?, logger: Logger)
        async throws -> Bookmark
    {
        let commentID: String? = if case .comment(let id) = object { id } else { nil }
        let rows = try await reads.query(
            """
            SELECT \(unescaped: BookmarkRow.columns)
            WHERE b.activity_id = \(activityID) AND b.user_id = \(userID) AND COALESCE(b.comment_id, '') = \(commentID ?? "")
                AND COALESCE(b.folder_id, '') = \(folderID ?? "")
            """, logger: logger)
        for try await row in rows {
            var columns = RowReader(row)
            return try BookmarkRow.bookmark(&columns)
        }
        throw Self.noBookmark(object, userID, folderID)
    }

    /// The bookmark, with its comment if it is one's, and its activity, as `userID` reads them.
    private func bookmarkAndActivity(
        _ object: BookmarkObject, _ activityID: String, _ userID: String, _ folderID: String?, principal: Principal,
        logger: Logger
    ) async throws -> (bookmark: Bookmark, activity: Activity) {
        var bookmark = try await bookmark(object, activityID, userID, folderID, logger: logger)
        if let commentID = bookmark.commentID {
            bookmark.comment = try await comment(id: commentID, by: principal, ownFieldsOf: userID, logger: logger)
        }
        return (bookmark, try await activity(activityID, principal: principal, ownFieldsOf: userID, logger: logger))
    }

    private static func name(_ object: BookmarkObject) -> String {
        switch object {
        case .activity(let id): "activity \(id)"
        case .comment(let id): "comment \(id)"
        }
    }

    private static func noBookmark(_ object: BookmarkObject, _ userID: String, _ folderID: String?) -> FeedsError {
        .notFound("\(userID) has no bookmark of \(name(object))" + (folderID.map { " in folder \($0)" } ?? " outside folders"))
    }
}

/// A bookmark with its user and folder, in the columns of `columns`.
enum BookmarkRow {
    static let columns = """
        b.activity_id, b.comment_id, b.custom::text, b.created_at, b.updated_at, \(UserRow.columns(alias: "bu")),
        bf.id, bf.name, bf.custom::text, bf.created_at, bf.updated_at
        FROM bookmarks b JOIN users bu ON bu.id = b.user_id LEFT JOIN bookmark_folders bf ON bf.id = b.folder_id
        """

    static func bookmark(_ columns: inout RowReader) throws -> Bookmark {
        let activityID: String = try columns.next(), commentID: String? = try columns.next()
        let custom = try JSONText.object(try columns.next())
        let created: Date = try columns.next(), updated: Date = try columns.next()
        let user = try UserRow.user(&columns)
        let folderID: String? = try columns.next(), name: String? = try columns.next(), folderCustom: String? = try columns.next()
        let folderCreated: Date? = try columns.next(), folderUpdated: Date? = try columns.next()
        var folder: BookmarkFolder?
        if let folderID, let name, let folderCustom, let folderCreated, let folderUpdated {
            folder = BookmarkFolder(
                id: folderID, user: user, name: name, custom: try JSONText.object(folderCustom), createdAt: folderCreated,
                updatedAt: folderUpdated)
        }
        return Bookmark(
            activityID: activityID, commentID: commentID, user: user, folder: folder, custom: custom, createdAt: created,
            updatedAt: updated)
    }

    /// A folder in the columns `id, name, custom::text, created_at, updated_at` and its user's.
    static func folder(_ columns: inout RowReader) throws -> BookmarkFolder {
        let id: String = try columns.next(), name: String = try columns.next()
        let custom = try JSONText.object(try columns.next())
        let created: Date = try columns.next(), updated: Date = try columns.next()
        return BookmarkFolder(
            id: id, user: try UserRow.user(&columns), name: name, custom: custom, createdAt: created, updatedAt: updated)
    }
}
