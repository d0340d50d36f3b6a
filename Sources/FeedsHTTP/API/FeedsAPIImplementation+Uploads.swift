import FeedsAPI
import FeedsCore
import FeedsMedia
import FeedsUploads
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
        let (received, key) = (file, input.headers.idempotencyKey)
        let response = try await afterBody("UploadFile", files: received.map { [$0] } ?? []) { [self, user] in
            try await idempotency.run(
                key: key, request: request, content: ["UploadFile", received?.sha256 ?? "", received?.fileName ?? "", user ?? ""]
            ) { claim in
                try await storeStandalone(received, user: user, imageOnly: false, settings: settings, claim: claim, request: request) {
                    Components.Schemas.FileUploadResponse(duration: request.duration, file: $0, thumbUrl: $1)
                }
            }
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
                let bytes = try await part.payload.body.collectingJSONPart(named: "upload_sizes")
                // Stream's Node SDK sends `undefined` for an option left out.
                if HTTPBody.saysNothing(bytes) { continue }
                do {
                    sizes = try JSONDecoder().decode([Components.Schemas.ImageSize].self, from: Data(bytes))
                } catch {
                    throw FeedsError.input(
                        "upload_sizes must be a JSON array of {width, height, resize, crop}", field: "upload_sizes")
                }
                guard (sizes ?? []).count <= maxUploadSizes else {
                    throw FeedsError.input(
                        "upload_sizes may name at most \(maxUploadSizes) sizes", field: "upload_sizes")
                }
                variants = try (sizes ?? []).map(Self.resizeRequest)
            case .undocumented(let part):
                for try await _ in part.body {}
            }
        }
        let (received, key) = (file, input.headers.idempotencyKey)
        let response = try await afterBody("UploadImage", files: received.map { [$0] } ?? []) { [self, user, sizes, variants] in
            try await idempotency.run(
                key: key, request: request,
                content: ["UploadImage", received?.sha256 ?? "", received?.fileName ?? "", user ?? "", try Idempotency.canonical(sizes)]
            ) { claim in
                try await storeStandalone(
                    received, user: user, imageOnly: true, settings: settings, variants: variants, claim: claim, request: request
                ) {
                    Components.Schemas.ImageUploadResponse(duration: request.duration, file: $0, thumbUrl: $1, uploadSizes: sizes)
                }
            }
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
            part: "file", fileName: ObjectKey.safeFileName(fileName ?? "file"), declaredType: nil, url: written.url,
            size: written.size,
            sha256: written.sha256
        )
    }

    /// Checks and stores a standalone upload; returns the reply `respond` makes of its URL and,
    /// for images, its thumbnail URL, recorded for `claim` as the upload becomes stored.
    private func storeStandalone<Response: Codable & Sendable>(
        _ file: ReceivedFile?, user: String?, imageOnly: Bool, settings: AppSettings, variants: [ResizeRequest] = [],
        claim: Idempotency.Claim?, request: AuthenticatedRequest, respond: (String, String?) -> Response
    ) async throws -> Response {
        guard let file else { throw FeedsError.input("the part file is required", field: "file") }
        let owner = try request.principal.actingUser(requested: user, field: "user")
        let checked = await uploads.describe(
            try FileChecker.check(
                file, imageOnly: imageOnly, settings: settings, storageLimit: uploads.cdn.maxAttachmentSize, field: "file"),
            attachmentType: nil, logger: request.logger)
        let stored = try await uploads.store(
            [.init(checked: checked, kind: imageOnly ? .image : .file)], owner: owner, logger: request.logger
        )
        let keys = stored.map(\.record.key)
        if !variants.isEmpty {
            do {
                try await uploads.precompute(variants, of: keys[0], mimeType: checked.file.mimeType, temp: file.url)
            } catch {
                // The upload stands; a size that cannot be made answers its own request with the reason.
                request.logger.warning("could not precompute upload_sizes", metadata: ["error": "\(error)"])
            }
        }
        let url = uploads.urls.url(for: keys[0])
        let response = respond(url, checked.hasThumbnail ? uploads.urls.thumbnailURL(url, mimeType: checked.file.mimeType) : nil)
        let recorded = try claim.map { claim in try Idempotency.recorded(response) }
        try await uploads.objects.markStored(
            keys, recording: claim.flatMap { claim in recorded.map { bytes in claim.record { (_: Void) in bytes } } },
            logger: request.logger)
        return response
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
        try await uploads.delete(key, logger: request.logger)
    }
}

/// The most `upload_sizes` an image upload may ask for: each is a resize made inside the upload's
/// request, and thumbnails need a few.
let maxUploadSizes = 10
