import FeedsAPI
import FeedsCore
import FeedsMedia
import Foundation
import OpenAPIRuntime

extension FeedsAPIImplementation {
    func uploadFile(_ input: Operations.UploadFile.Input) async throws -> Operations.UploadFile.Output {
        let request = try request
        guard case .multipartForm(let parts) = input.body else {
            throw FeedsError(.unsupportedMediaType, "expected multipart/form-data")
        }
        // The rules in force when the upload started are the ones it finishes under.
        let settings = uploads.settings.current
        let tempFiles = TempFiles()
        defer { tempFiles.removeAll() }
        var file: ReceivedFile?
        var user: String?
        for try await part in FastMultipart.parts(parts) {
            switch part {
            case .file(let part):
                file = try await receive(
                    part.payload.body, fileName: part.filename, existing: file, tempFiles: tempFiles,
                    limit: uploads.streamLimit(settings, imageOnly: false))
            case .user(let part):
                user = part.payload.body.id
            case .undocumented(let part):
                for try await _ in part.body {}  // other parts are ignored, but must be read past
            }
        }
        let response = try await idempotency.run(
            key: input.headers.idempotencyKey, request: request,
            content: ["UploadFile", file?.sha256 ?? "", file?.fileName ?? "", user ?? ""]
        ) {
            let (url, thumb) = try await storeStandalone(file, user: user, imageOnly: false, settings: settings, request: request)
            return Components.Schemas.FileUploadResponse(duration: request.duration, file: url, thumbUrl: thumb)
        }
        return .created(.init(body: .json(response)))
    }

    func uploadImage(_ input: Operations.UploadImage.Input) async throws -> Operations.UploadImage.Output {
        let request = try request
        guard case .multipartForm(let parts) = input.body else {
            throw FeedsError(.unsupportedMediaType, "expected multipart/form-data")
        }
        let settings = uploads.settings.current
        let tempFiles = TempFiles()
        defer { tempFiles.removeAll() }
        var file: ReceivedFile?
        var user: String?
        var sizes: [Components.Schemas.ImageSize]?
        var variants: [ResizeRequest] = []
        for try await part in FastMultipart.parts(parts) {
            switch part {
            case .file(let part):
                file = try await receive(
                    part.payload.body, fileName: part.filename, existing: file, tempFiles: tempFiles,
                    limit: uploads.streamLimit(settings, imageOnly: true))
            case .user(let part):
                user = part.payload.body.id
            case .uploadSizes(let part):
                let text = try await String(collecting: part.payload.body, upTo: 64 * 1024)
                do {
                    sizes = try JSONDecoder().decode([Components.Schemas.ImageSize].self, from: Data(text.utf8))
                } catch {
                    throw FeedsError.input(
                        "upload_sizes must be a JSON array of {width, height, resize, crop}", field: "upload_sizes")
                }
                variants = try (sizes ?? []).map(Self.resizeRequest)
            case .undocumented(let part):
                for try await _ in part.body {}
            }
        }
        let response = try await idempotency.run(
            key: input.headers.idempotencyKey, request: request,
            content: ["UploadImage", file?.sha256 ?? "", file?.fileName ?? "", user ?? "", try Idempotency.canonical(sizes)]
        ) {
            let (url, thumb) = try await storeStandalone(
                file, user: user, imageOnly: true, settings: settings, variants: variants, request: request)
            return Components.Schemas.ImageUploadResponse(
                duration: request.duration, file: url, thumbUrl: thumb, uploadSizes: sizes)
        }
        return .created(.init(body: .json(response)))
    }

    func deleteFile(_ input: Operations.DeleteFile.Input) async throws -> Operations.DeleteFile.Output {
        let request = try request
        try await deleteUpload(url: input.query.url, request: request)
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }

    func deleteImage(_ input: Operations.DeleteImage.Input) async throws -> Operations.DeleteImage.Output {
        let request = try request
        try await deleteUpload(url: input.query.url, request: request)
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }

    /// Streams the one `file` part to a temp file.
    private func receive(
        _ body: HTTPBody, fileName: String?, existing: ReceivedFile?, tempFiles: TempFiles, limit: SizeLimit
    ) async throws -> ReceivedFile {
        guard existing == nil else { throw FeedsError.input("send one file part", field: "file") }
        let written = try await TempFileWriter.write(await PartBytes(of: body), to: uploads.tempDirectory, limit: limit)
        tempFiles.track(written.url)
        return ReceivedFile(
            part: "file", fileName: fileName ?? "file", declaredType: nil, url: written.url, size: written.size,
            sha256: written.sha256
        )
    }

    /// Checks and stores a standalone upload; returns its URL and, for images, its thumbnail URL.
    private func storeStandalone(
        _ file: ReceivedFile?, user: String?, imageOnly: Bool, settings: AppSettings, variants: [ResizeRequest] = [],
        request: AuthenticatedRequest
    ) async throws -> (String, String?) {
        guard let file else { throw FeedsError.input("the part file is required", field: "file") }
        let owner = try request.principal.actingUser(requested: user, field: "user")
        let checked = try FileChecker.check(
            file, imageOnly: imageOnly, settings: settings, storageLimit: uploads.cdn.maxAttachmentSize, field: "file")
        let stored = try await uploads.store(
            [.init(checked: checked, kind: imageOnly ? .image : .file)], owner: owner, logger: request.logger
        )
        let keys = stored.map(\.record.key)
        try await uploads.objects.markUploaded(keys, logger: request.logger)
        if !variants.isEmpty {
            do {
                try await uploads.precompute(variants, of: keys[0], mimeType: checked.file.mimeType, temp: file.url)
            } catch {
                // The upload stands; a size that cannot be made answers its own request with the reason.
                request.logger.warning("could not precompute upload_sizes", metadata: ["error": "\(error)"])
            }
        }
        let url = uploads.url(for: keys[0])
        return (url, checked.isImage ? uploads.thumbnailURL(url, mimeType: checked.file.mimeType) : nil)
    }

    /// One entry of `upload_sizes` as a resize, checked like the URL parameters it stands for.
    static func resizeRequest(_ size: Components.Schemas.ImageSize) throws -> ResizeRequest {
        var query: [String: String] = [:]
        query["w"] = size.width.map(String.init)
        query["h"] = size.height.map(String.init)
        query["resize"] = size.resize
        query["crop"] = size.crop
        do {
            guard let request = try ResizeRequest(query: query) else {
                throw FeedsError.input("each of upload_sizes needs a width or a height", field: "upload_sizes")
            }
            return request
        } catch let error as FeedsError {
            throw FeedsError.input("upload_sizes: \(error.message)", field: "upload_sizes")
        }
    }

    /// Deletes one of our objects by its URL: its owner or the server; again is fine; not ours is 404.
    private func deleteUpload(url: String?, request: AuthenticatedRequest) async throws {
        guard let url, !url.isEmpty else { throw FeedsError.input("url is required", field: "url") }
        guard let key = uploads.signer.objectKey(inURL: url),
            let record = try await uploads.objects.object(key, logger: request.logger)
        else { throw FeedsError.notFound("\(url) is not a file of this server") }
        guard request.principal == .server || (record.ownerID != nil && record.ownerID == request.principal.userID) else {
            throw FeedsError.notAllowed("only the owner or the server may delete this file")
        }
        guard record.state != .deleted else { return }
        do {
            try await uploads.cdn.delete(key: key)
        } catch {
            throw UploadPipeline.refusal(error)
        }
        _ = try await uploads.objects.markDeleted(key, logger: request.logger)
    }
}
