import FeedsAPI
import FeedsCore
import FeedsServices
import FeedsWire

/// AddBookmark, UpdateBookmark, DeleteBookmark, QueryBookmarks, QueryBookmarkFolders,
/// UpdateBookmarkFolder and DeleteBookmarkFolder. A user sees and changes only their own
/// bookmarks and folders; the server names the user. The workflow is the `Bookmarks` service's.
extension FeedsAPIImplementation {
    func addBookmark(_ input: Operations.AddBookmark.Input) async throws -> Operations.AddBookmark.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let user = try Self.actingUser(request, body.userId ?? body.user?.id)
        let folder = try FolderChoice(
            folderID: body.folderId, newFolder: try body.newFolder.map { ($0.name, try Self.custom($0.custom)) }, field: "")
        let (bookmark, activity) = try await bookmarks.add(
            input.path.id, userID: user, folder: folder, custom: try Self.custom(body.custom) ?? [:],
            principal: request.principal, logger: request.logger)
        return .created(.init(body: .json(.init(bookmark: try wireBookmark(bookmark, activity), duration: request.duration))))
    }

    func updateBookmark(_ input: Operations.UpdateBookmark.Input) async throws -> Operations.UpdateBookmark.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let user = try Self.actingUser(request, body.userId ?? body.user?.id)
        // `new_folder_id` "" takes the bookmark out of its folder; absent with no `new_folder`, it stays.
        var move: FolderChoice?
        if body.newFolderId != nil || body.newFolder != nil {
            if body.newFolderId == "", body.newFolder == nil {
                move = FolderChoice.none
            } else {
                move = try FolderChoice(
                    folderID: body.newFolderId, newFolder: try body.newFolder.map { ($0.name, try Self.custom($0.custom)) },
                    field: "new_")
            }
        }
        let (bookmark, activity) = try await bookmarks.update(
            input.path.id, userID: user, folderID: body.folderId.flatMap { $0.isEmpty ? nil : $0 },
            move: move, custom: try Self.custom(body.custom), principal: request.principal, logger: request.logger)
        return .ok(.init(body: .json(.init(bookmark: try wireBookmark(bookmark, activity), duration: request.duration))))
    }

    func deleteBookmark(_ input: Operations.DeleteBookmark.Input) async throws -> Operations.DeleteBookmark.Output {
        let request = try request
        let user = try Self.actingUser(request, input.query.userId)
        let (bookmark, activity) = try await bookmarks.delete(
            input.path.id, userID: user, folderID: input.query.folderId.flatMap { $0.isEmpty ? nil : $0 },
            principal: request.principal, logger: request.logger)
        return .ok(.init(body: .json(.init(bookmark: try wireBookmark(bookmark, activity), duration: request.duration))))
    }

    func queryBookmarks(_ input: Operations.QueryBookmarks.Input) async throws -> Operations.QueryBookmarks.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        var query = try BookmarkQuery(
            filter: try body.filter.map { try recode($0) },
            page: try page(body.sort, body.limit, body.next, body.prev, kind: BookmarkQuery.cursorKind, keys: 2, "bookmarks"))
        // The server may ask for one user's bookmarks by `user_id`, as for the filter's.
        if let named = body.userId ?? body.user?.id {
            let user = try Self.actingUser(request, named)
            if request.principal.userID == nil { query.userIDs = (query.userIDs ?? [user]).filter { $0 == user } }
        }
        let found = try await store.queryBookmarks(query, by: request.principal, logger: request.logger)
        return .created(
            .init(
                body: .json(
                    .init(
                        bookmarks: try found.bookmarks.map { try wireBookmark($0.bookmark, $0.activity) },
                        duration: request.duration, next: found.next?.token(kind: BookmarkQuery.cursorKind)))))
    }

    func queryBookmarkFolders(_ input: Operations.QueryBookmarkFolders.Input) async throws
        -> Operations.QueryBookmarkFolders.Output
    {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let query = try BookmarkFolderQuery(
            filter: try body.filter.map { try recode($0) },
            page: try page(body.sort, body.limit, body.next, body.prev, kind: BookmarkFolderQuery.cursorKind, keys: 1, "folders"))
        let found = try await store.queryBookmarkFolders(query, by: request.principal, logger: request.logger)
        return .created(
            .init(
                body: .json(
                    .init(
                        bookmarkFolders: try found.folders.map(Wire.folder), duration: request.duration,
                        next: found.next?.token(kind: BookmarkFolderQuery.cursorKind)))))
    }

    func updateBookmarkFolder(_ input: Operations.UpdateBookmarkFolder.Input) async throws
        -> Operations.UpdateBookmarkFolder.Output
    {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        if let named = body.userId ?? body.user?.id { _ = try Self.actingUser(request, named) }
        let name = try body.name.map { try BookmarkFolder.checkedName($0, field: "name") }
        let folder = try await store.updateBookmarkFolder(
            id: input.path.folderId, name: name, custom: try Self.custom(body.custom), by: request.principal,
            logger: request.logger)
        return .ok(.init(body: .json(.init(bookmarkFolder: try Wire.folder(folder), duration: request.duration))))
    }

    func deleteBookmarkFolder(_ input: Operations.DeleteBookmarkFolder.Input) async throws
        -> Operations.DeleteBookmarkFolder.Output
    {
        let request = try request
        try await store.deleteBookmarkFolder(id: input.path.folderId, by: request.principal, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }

    // MARK: - Parts

    private func wireBookmark(_ bookmark: Bookmark, _ activity: Activity) throws -> Components.Schemas.BookmarkResponse {
        try Wire.bookmark(bookmark, activity: try wire(activity))
    }

    private func page(
        _ sort: [Components.Schemas.SortParamRequest]?, _ limit: Int32?, _ next: String?, _ prev: String?, kind: String,
        keys: Int,
        _ what: String
    ) throws -> KeysetPage {
        try KeysetPage(
            sort: (sort ?? []).map { ($0.field, $0.direction.map(Int.init)) }, limit: limit.map(Int.init), next: next, prev: prev,
            kind: kind, keyCount: keys, what: what)
    }

    /// A request's custom data, whichever generated payload type holds it.
    private static func custom<Payload: Encodable>(_ payload: Payload?) throws -> JSONObject? {
        try payload.map { try recode($0) }
    }
}
