import FeedsAPI
import FeedsCore
import FeedsMedia
import FeedsServices
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
                    limit: uploads.streamLimit(settings, imageOnly: false), strippingJPEG: settings.stripImageMetadata)
            case .user(let part):
                user = part.payload.body.id
            case .undocumented(let part):
                for try await _ in part.body {}  // other parts are ignored, but must be read past
            }
        }
        let (received, key) = (file, input.headers.idempotencyKey)
        let response = try await afterBody("UploadFile", files: received.map { [$0] } ?? []) { [self, user] in
            try await idempotency.run(
                key: key, principal: request.principal, logger: request.logger,
                content: ["UploadFile", received?.sha256 ?? "", received?.fileName ?? "", user ?? ""]
            ) { claim in
                try await fileUploads.standalone(
                    received, user: user, imageOnly: false, settings: settings, claim: claim, principal: request.principal,
                    logger: request.logger
                ) {
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
                    limit: uploads.streamLimit(settings, imageOnly: true), strippingJPEG: settings.stripImageMetadata)
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
                key: key, principal: request.principal, logger: request.logger,
                content: [
                    "UploadImage", received?.sha256 ?? "", received?.fileName ?? "", user ?? "", try Idempotency.canonical(sizes),
                ]
            ) { claim in
                try await fileUploads.standalone(
                    received, user: user, imageOnly: true, settings: settings, variants: variants, claim: claim,
                    principal: request.principal, logger: request.logger
                ) {
                    Components.Schemas.ImageUploadResponse(duration: request.duration, file: $0, thumbUrl: $1, uploadSizes: sizes)
                }
            }
        }
        return .created(.init(body: .json(response)))
    }

    func deleteFile(_ input: Operations.DeleteFile.Input) async throws -> Operations.DeleteFile.Output {
        let request = try request
        try await fileUploads.delete(url: input.query.url, principal: request.principal, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }

    func deleteImage(_ input: Operations.DeleteImage.Input) async throws -> Operations.DeleteImage.Output {
        let request = try request
        try await fileUploads.delete(url: input.query.url, principal: request.principal, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }

    /// Streams the one `file` part to a temp file.
    private func receive(
        _ body: HTTPBody, fileName: String?, existing: ReceivedFile?, tempFiles: TempFiles, limit: SizeLimit,
        strippingJPEG: Bool
    ) async throws -> ReceivedFile {
        guard existing == nil else { throw FeedsError.input("send one file part", field: "file") }
        let written = try await TempFileWriter.write(
            await PartBytes(of: body), to: uploads.tempDirectory, limit: limit, strippingJPEG: strippingJPEG)
        tempFiles.track(written.url)
        return ReceivedFile(
            part: "file", fileName: ObjectKey.safeFileName(fileName ?? "file"), declaredType: nil, url: written.url,
            size: written.size, sha256: written.sha256, metadata: written.metadata)
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
}

/// The most `upload_sizes` an image upload may ask for: each is a resize made inside the upload's
/// request, and thumbnails need a few.
let maxUploadSizes = 10
