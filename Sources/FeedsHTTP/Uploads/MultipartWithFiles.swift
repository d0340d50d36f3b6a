import FeedsAPI
import FeedsCore
import FeedsServices
import FeedsUploads
import FeedsWire
import Foundation
import OpenAPIRuntime

/// A create with its files, as `multipart/form-data`: one JSON part (`activity` for AddActivity,
/// `comment` for AddComment) holding the request with `attachment_uploads`, and one part per file,
/// streamed to temp files part by part.
struct MultipartWithFiles<Request: Sendable> {
    var request: Request
    /// The files in the order `attachment_uploads` names them.
    var files: [AttachedFile]

    static var maxUploads: Int { 10 }

    /// What one decoded part is: the JSON request, or a file part (any other name).
    enum Part {
        case request(Request)
        case file(MultipartRawPart)
    }

    /// Reads every part; a file over `limit` ends the request with 413 at once. `name` is the JSON
    /// part's, `uploadsOf` reads `attachment_uploads` from the request; `strippingJPEG` takes a
    /// JPEG's metadata out as it is written.
    static func read<Payload: FastMultipartPayload>(
        _ parts: MultipartBody<Payload>, name: String, classify: @escaping @Sendable (Payload) -> Part,
        uploadsOf: (Request) -> [Components.Schemas.AttachmentUpload]?, into directory: URL, tempFiles: TempFiles,
        limit: SizeLimit, strippingJPEG: Bool
    ) async throws -> Self {
        var request: Request?
        var files: [String: ReceivedFile] = [:]
        for try await payload in FastMultipart.parts(parts) {
            switch classify(payload) {
            case .request(let decoded):
                request = decoded
            case .file(let part):
                // Every other part is a file, of any type: the bytes decide, not the header.
                let (partName, fileName) = ContentDisposition.nameAndFileName(part.headerFields[.contentDisposition])
                guard let partName, !partName.isEmpty, files[partName] == nil else {
                    throw FeedsError.input("every file part needs a distinct name", field: "attachment_uploads")
                }
                guard files.count < maxUploads else {
                    throw FeedsError.input(
                        "at most \(maxUploads) files may be uploaded with a \(name)", field: "attachment_uploads")
                }
                let written = try await TempFileWriter.write(
                    await PartBytes(of: part.body), to: directory, limit: limit, strippingJPEG: strippingJPEG)
                tempFiles.track(written.url)
                files[partName] = ReceivedFile(
                    part: partName, fileName: ObjectKey.safeFileName(fileName ?? partName),
                    declaredType: part.headerFields[.contentType], url: written.url, size: written.size, sha256: written.sha256,
                    metadata: written.metadata)
            }
        }
        guard let request else { throw FeedsError.input("the part \(name) is required", field: name) }
        let wanted = uploadsOf(request) ?? []
        guard wanted.count <= maxUploads else {
            throw FeedsError.input("at most \(maxUploads) attachment_uploads", field: "attachment_uploads")
        }
        var uploads: [AttachedFile] = []
        for (index, upload) in wanted.enumerated() {
            guard let file = files[upload.file] else {
                throw FeedsError.input(
                    "attachment_uploads[\(index)] names the part \"\(upload.file)\", which was not sent",
                    field: "attachment_uploads")
            }
            guard !uploads.contains(where: { $0.file.part == upload.file }) else {
                throw FeedsError.input("the part \"\(upload.file)\" is named twice", field: "attachment_uploads")
            }
            uploads.append(
                AttachedFile(
                    type: upload._type, title: upload.title, custom: try upload.custom.map { try recode($0) }, file: file))
        }
        if let stray = files.keys.sorted().first(where: { name in !wanted.contains { $0.file == name } }) {
            throw FeedsError.input("the part \"\(stray)\" is not named by attachment_uploads", field: "attachment_uploads")
        }
        return Self(request: request, files: uploads)
    }
}
