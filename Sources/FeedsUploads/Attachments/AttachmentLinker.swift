import FeedsCDN
import FeedsCore
import Logging

/// The one place where attachments a client sends become stored attachments, for AddActivity,
/// UpdateActivity and UpdateActivityPartial alike. An attachment whose URL is one of ours links to
/// that object: it must exist, belong to the caller (or be held by the activity already, or the
/// caller be the server), and be of the kind its type needs; its `mime_type`, `file_size`,
/// dimensions and a video's or audio file's `custom.duration` and `custom.codec` come from the
/// object's record, never from the client. Other attachments are kept as given.
package struct AttachmentLinker: Sendable {
    let objects: any ObjectStore
    let signer: URLSigner

    package init(objects: any ObjectStore, signer: URLSigner) {
        self.objects = objects
        self.signer = signer
    }

    /// The fields that may hold a URL of ours.
    static let urlFields = ["asset_url", "image_url", "thumb_url"]

    /// `payloads` linked. `held` reads the objects the activity holds now, asked only when an
    /// object is not the caller's: re-sending one of them (an edit screen's round trip) keeps it,
    /// whoever uploaded it.
    package func link(
        _ payloads: [JSONObject], principal: Principal,
        held: @Sendable () async throws -> Set<ObjectKey> = { [] }, field: String = "attachments", logger: Logger
    ) async throws -> [StoredAttachment] {
        var keys: [ObjectKey?] = []
        for (index, payload) in payloads.enumerated() {
            let ours = Set(
                Self.urlFields.compactMap { name in
                    if case .string(let url) = payload[name] { signer.objectKey(inURL: url) } else { nil }
                })
            guard ours.count <= 1 else {
                throw FeedsError.input("\(field)[\(index)] points at more than one file", field: field)
            }
            keys.append(ours.first)
        }
        let wanted = Array(Set(keys.compactMap { $0 }))
        let records = wanted.isEmpty ? [:] : try await objects.objects(wanted, logger: logger)
        let others = records.values.filter { principal != .server && $0.ownerID != principal.userID }
        let heldKeys = others.isEmpty ? [] : try await held()

        return try payloads.enumerated().map { index, given in
            // Stream's SDKs leave `custom` out; what is stored, and so returned, always has it.
            var payload = given
            if payload["custom"] == nil { payload["custom"] = .object([:]) }
            guard let key = keys[index] else { return StoredAttachment(payload: payload) }
            guard let record = records[key], record.state.isLinkable else {
                throw FeedsError.input("\(field)[\(index)] points at a file that does not exist", field: field)
            }
            guard principal == .server || record.ownerID == principal.userID || heldKeys.contains(key) else {
                throw FeedsError.notAllowed("\(field)[\(index)] points at another user's file")
            }
            let attachment = StoredAttachment(payload: payload, objectKey: key)
            if attachment.type == "image", record.kind != .image {
                throw FeedsError.input(
                    "\(field)[\(index)] is an image attachment, but its file was uploaded as a file, not an image",
                    field: field)
            }
            return StoredAttachment(payload: Self.described(payload, by: record), objectKey: key)
        }
    }

    /// The payload without our URLs (responses sign them afresh), described by the record.
    static func described(_ payload: JSONObject, by record: ObjectRecord) -> JSONObject {
        var described = payload
        for name in urlFields { described[name] = nil }
        described["mime_type"] = .string(record.mimeType)
        described["file_size"] = .number(Double(record.size))
        described["original_width"] = record.width.map { .number(Double($0)) }
        described["original_height"] = record.height.map { .number(Double($0)) }
        // What ffprobe measured stands over what the client said, as for a file uploaded with its activity.
        if let media = record.media, case .object(var custom) = described["custom"] ?? .object([:]) {
            media.write(into: &custom)
            described["custom"] = .object(custom)
        }
        return described
    }
}
