import FeedsAPI
import FeedsCore
import FeedsServices
import FeedsWire

/// AddBookmark, UpdateBookmark, DeleteBookmark, their comment forms (AddCommentBookmark…),
/// QueryBookmarks, QueryBookmarkFolders,
/// UpdateBookmarkFolder and DeleteBookmarkFolder. A user sees and changes only their own
/// bookmarks and folders; the server names the user. The workflow is the `Bookmarks` service's.
extension FeedsAPIImplementation {
    func addBookmark(_ input: Operations.AddBookmark.Input) async throws -> Operations.AddBookmark.Output {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let (bookmark, request) = try await add(
            .activity(input.path.id), user: body.userId ?? body.user?.id, folderID: body.folderId, newFolder: body.newFolder,
            custom: try Self.custom(body.custom))
        return .created(.init(body: .json(.init(bookmark: bookmark, duration: request.duration))))
    }

    func addCommentBookmark(_ input: Operations.AddCommentBookmark.Input) async throws -> Operations.AddCommentBookmark.Output {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let (bookmark, request) = try await add(
            .comment(input.path.id), user: body.userId ?? body.user?.id, folderID: body.folderId,
            newFolder: body.newFolder, custom: try Self.custom(body.custom))
        return .created(.init(body: .json(.init(bookmark: bookmark, duration: request.duration))))
    }

    func updateBookmark(_ input: Operations.UpdateBookmark.Input) async throws -> Operations.UpdateBookmark.Output {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let (bookmark, request) = try await update(
            .activity(input.path.id), user: body.userId ?? body.user?.id, folderID: body.folderId,
            newFolderID: body.newFolderId, newFolder: body.newFolder, custom: try Self.custom(body.custom))
        return .ok(.init(body: .json(.init(bookmark: bookmark, duration: request.duration))))
    }

    func updateCommentBookmark(_ input: Operations.UpdateCommentBookmark.Input) async throws
        -> Operations.UpdateCommentBookmark.Output
    {
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let (bookmark, request) = try await update(
            .comment(input.path.id), user: body.userId ?? body.user?.id, folderID: body.folderId,
            newFolderID: body.newFolderId, newFolder: body.newFolder, custom: try Self.custom(body.custom))
        return .ok(.init(body: .json(.init(bookmark: bookmark, duration: request.duration))))
    }

    func deleteBookmark(_ input: Operations.DeleteBookmark.Input) async throws -> Operations.DeleteBookmark.Output {
        let (bookmark, request) = try await delete(
            .activity(input.path.id), user: input.query.userId, folderID: input.query.folderId)
        return .ok(.init(body: .json(.init(bookmark: bookmark, duration: request.duration))))
    }

    func deleteCommentBookmark(_ input: Operations.DeleteCommentBookmark.Input) async throws
        -> Operations.DeleteCommentBookmark.Output
    {
        let (bookmark, request) = try await delete(
            .comment(input.path.id), user: input.query.userId, folderID: input.query.folderId)
        return .ok(.init(body: .json(.init(bookmark: bookmark, duration: request.duration))))
    }

    // MARK: - One bookmark, of an activity or a comment

    private func add(
        _ object: BookmarkObject, user named: String?, folderID: String?, newFolder: Components.Schemas.AddFolderRequest?,
        custom: JSONObject?
    ) async throws -> (Components.Schemas.BookmarkResponse, AuthenticatedRequest) {
        let request = try request
        let user = try Self.actingUser(request, named)
        let folder = try FolderChoice(
            folderID: folderID, newFolder: try newFolder.map { ($0.name, try Self.custom($0.custom)) }, field: "")
        let (bookmark, activity) = try await bookmarks.add(
            object, userID: user, folder: folder, custom: custom ?? [:], principal: request.principal, logger: request.logger)
        return (try await wireBookmark(bookmark, activity, request), request)
    }

    private func update(
        _ object: BookmarkObject, user named: String?, folderID: String?, newFolderID: String?,
        newFolder: Components.Schemas.AddFolderRequest?, custom: JSONObject?
    ) async throws -> (Components.Schemas.BookmarkResponse, AuthenticatedRequest) {
        let request = try request
        let user = try Self.actingUser(request, named)
        // `new_folder_id` "" takes the bookmark out of its folder; absent with no `new_folder`, it stays.
        var move: FolderChoice?
        if newFolderID != nil || newFolder != nil {
            if newFolderID == "", newFolder == nil {
                move = FolderChoice.none
            } else {
                move = try FolderChoice(
                    folderID: newFolderID, newFolder: try newFolder.map { ($0.name, try Self.custom($0.custom)) }, field: "new_")
            }
        }
        let (bookmark, activity) = try await bookmarks.update(
            object, userID: user, folderID: folderID.flatMap { $0.isEmpty ? nil : $0 }, move: move, custom: custom,
            principal: request.principal, logger: request.logger)
        return (try await wireBookmark(bookmark, activity, request), request)
    }

    private func delete(_ object: BookmarkObject, user named: String?, folderID: String?) async throws
        -> (Components.Schemas.BookmarkResponse, AuthenticatedRequest)
    {
        let request = try request
        let user = try Self.actingUser(request, named)
        let (bookmark, activity) = try await bookmarks.delete(
            object, userID: user, folderID: folderID.flatMap { $0.isEmpty ? nil : $0 }, principal: request.principal,
            logger: request.logger)
        return (try await wireBookmark(bookmark, activity, request), request)
    }

    func queryBookmarks(_ input: Operations.QueryBookmarks.Input) async throws -> Operations.QueryBookmarks.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        var query = try BookmarkQuery(
            filter: try body.filter.map { try recode($0) },
            page: try page(body.sort, body.limit, body.next, body.prev, kind: BookmarkQuery.cursorKind, keys: 3, "bookmarks"))
        // The server may ask for one user's bookmarks by `user_id`, as for the filter's.
        if let named = body.userId ?? body.user?.id {
            let user = try Self.actingUser(request, named)
            if request.principal.userID == nil { query.userIDs = (query.userIDs ?? [user]).filter { $0 == user } }
        }
        let found = try await store.queryBookmarks(query, by: request.principal, logger: request.logger)
        var wired: [Components.Schemas.BookmarkResponse] = []
        for (bookmark, activity) in found.bookmarks { wired.append(try await wireBookmark(bookmark, activity, request)) }
        return .created(
            .init(
                body: .json(
                    .init(
                        bookmarks: wired,
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

    /// A bookmark with its activity, and a comment's with its comment (its mentions resolved).
    private func wireBookmark(_ bookmark: Bookmark, _ activity: Activity, _ request: AuthenticatedRequest) async throws
        -> Components.Schemas.BookmarkResponse
    {
        let comment = if let found = bookmark.comment { try await wire([found], request).first } else { nil as Components.Schemas.CommentResponse? }
        return try Wire.bookmark(bookmark, activity: try wire(activity), comment: comment)
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
