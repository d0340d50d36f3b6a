import Logging

/// Where bookmarks and their folders live. A user bookmarks activities they may read and comments
/// on them (`BookmarkObject`), and sees
/// and changes only their own bookmarks and folders; the server acts for any user.
public protocol BookmarkStore: Sendable {
    /// Bookmarks an activity or a comment for `userID` in `folder` (an existing folder of theirs, a new one,
    /// or none); bookmarking again replaces the custom data. A new folder whose name the user
    /// has already is that folder.
    func addBookmark(
        _ object: BookmarkObject, userID: String, folder: FolderChoice, custom: JSONObject, by principal: Principal,
        logger: Logger
    ) async throws -> (bookmark: Bookmark, activity: Activity)

    /// Changes the bookmark in `folderID` (nil: the one without a folder): its custom data, and
    /// with `move` its folder (`.none` takes it out of any).
    func updateBookmark(
        _ object: BookmarkObject, userID: String, folderID: String?, move: FolderChoice?, custom: JSONObject?,
        by principal: Principal, logger: Logger
    ) async throws -> (bookmark: Bookmark, activity: Activity)

    /// Removes the bookmark in `folderID` (nil: the one without a folder).
    func deleteBookmark(_ object: BookmarkObject, userID: String, folderID: String?, by principal: Principal, logger: Logger)
        async throws -> (bookmark: Bookmark, activity: Activity)

    func queryBookmarks(_ query: BookmarkQuery, by principal: Principal, logger: Logger) async throws -> BookmarkPage

    func queryBookmarkFolders(_ query: BookmarkFolderQuery, by principal: Principal, logger: Logger) async throws
        -> BookmarkFolderPage

    /// Renames a folder or replaces its custom data: its owner or the server.
    func updateBookmarkFolder(id: String, name: String?, custom: JSONObject?, by principal: Principal, logger: Logger)
        async throws -> BookmarkFolder

    /// Deletes a folder and the bookmarks in it: its owner or the server.
    func deleteBookmarkFolder(id: String, by principal: Principal, logger: Logger) async throws
}
