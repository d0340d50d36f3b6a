import FeedsAPI
import FeedsCore
import FeedsUploads
import Foundation
import OpenAPIRuntime

/// AddActivity as `multipart/form-data`: the part `activity` (the JSON request with
/// `attachment_uploads`) and one part per file, streamed to temp files part by part.
struct MultipartActivity {
    var request: Components.Schemas.AddActivityRequest
    /// The files in the order `attachment_uploads` names them.
    var uploads: [(upload: Components.Schemas.AttachmentUpload, file: ReceivedFile)]

    static let maxUploads = 10

    /// Reads every part; a file over `limit` ends the request with 413 at once.
    static func read(
        _ parts: MultipartBody<Operations.AddActivity.Input.Body.MultipartFormPayload>,
        into directory: URL, tempFiles: TempFiles, limit: SizeLimit
    ) async throws -> MultipartActivity {
        var request: Components.Schemas.AddActivityRequest?
        var files: [String: ReceivedFile] = [:]
        for try await part in FastMultipart.parts(parts) {
            switch part {
            case .activity(let activity):
                request = activity.payload.body
            case .undocumented(let part):
                // Every part but `activity` is a file, of any type: the bytes decide, not the header.
                let (name, fileName) = ContentDisposition.nameAndFileName(part.headerFields[.contentDisposition])
                guard let name, !name.isEmpty, files[name] == nil else {
                    throw FeedsError.input("every file part needs a distinct name", field: "attachment_uploads")
                }
                guard files.count < maxUploads else {
                    throw FeedsError.input(
                        "at most \(maxUploads) files may be uploaded with an activity", field: "attachment_uploads")
                }
                let written = try await TempFileWriter.write(await PartBytes(of: part.body), to: directory, limit: limit)
                tempFiles.track(written.url)
                files[name] = ReceivedFile(
                    part: name, fileName: ObjectKey.safeFileName(fileName ?? name), declaredType: part.headerFields[.contentType],
                    url: written.url,
                    size: written.size, sha256: written.sha256
                )
            }
        }
        guard let request else { throw FeedsError.input("the part activity is required", field: "activity") }
        let wanted = request.attachmentUploads ?? []
        guard wanted.count <= maxUploads else {
            throw FeedsError.input("at most \(maxUploads) attachment_uploads", field: "attachment_uploads")
        }
        var uploads: [(Components.Schemas.AttachmentUpload, ReceivedFile)] = []
        for (index, upload) in wanted.enumerated() {
            guard let file = files[upload.file] else {
                throw FeedsError.input(
                    "attachment_uploads[\(index)] names the part \"\(upload.file)\", which was not sent",
                    field: "attachment_uploads")
            }
            guard !uploads.contains(where: { $0.1.part == upload.file }) else {
                throw FeedsError.input("the part \"\(upload.file)\" is named twice", field: "attachment_uploads")
            }
            uploads.append((upload, file))
        }
        if let stray = files.keys.sorted().first(where: { name in !wanted.contains { $0.file == name } }) {
            throw FeedsError.input("the part \"\(stray)\" is not named by attachment_uploads", field: "attachment_uploads")
        }
        return MultipartActivity(request: request, uploads: uploads)
    }
}
