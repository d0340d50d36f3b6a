import FeedsCore
import Logging

/// Bookmarks' workflow: a user's bookmarks of the activities they may read and of their comments
/// (`BookmarkObject`), each change sent to
/// that user's sockets alone. Folders change without events.
package struct Bookmarks<Store: ActivityStore>: Sendable {
    let store: Store
    let events: Events<Store>

    package init(store: Store, events: Events<Store>) { (self.store, self.events) = (store, events) }

    /// AddBookmark: into `folder` (an existing one, a new one, or none).
    package func add(
        _ object: BookmarkObject, userID: String, folder: FolderChoice, custom: JSONObject, principal: Principal, logger: Logger
    ) async throws -> (bookmark: Bookmark, activity: Activity) {
        let made = try await store.addBookmark(
            object, userID: userID, folder: folder, custom: custom, by: principal, logger: logger)
        events.bookmark("feeds.bookmark.added", made.bookmark, activity: made.activity)
        return made
    }

    /// UpdateBookmark: the bookmark in `folderID` (nil: the one without a folder), its custom data
    /// changed and, with `move`, moved.
    package func update(
        _ object: BookmarkObject, userID: String, folderID: String?, move: FolderChoice?, custom: JSONObject?,
        principal: Principal, logger: Logger
    ) async throws -> (bookmark: Bookmark, activity: Activity) {
        let changed = try await store.updateBookmark(
            object, userID: userID, folderID: folderID, move: move, custom: custom, by: principal, logger: logger)
        events.bookmark("feeds.bookmark.updated", changed.bookmark, activity: changed.activity)
        return changed
    }

    /// DeleteBookmark.
    package func delete(_ object: BookmarkObject, userID: String, folderID: String?, principal: Principal, logger: Logger)
        async throws -> (bookmark: Bookmark, activity: Activity)
    {
        let removed = try await store.deleteBookmark(
            object, userID: userID, folderID: folderID, by: principal, logger: logger)
        events.bookmark("feeds.bookmark.deleted", removed.bookmark, activity: removed.activity)
        return removed
    }
}
