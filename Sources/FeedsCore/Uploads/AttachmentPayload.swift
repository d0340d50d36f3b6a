/// Attachments that hold one of our objects keep its key, never a URL: every response signs
/// URLs afresh. The key travels inside the payload under a field no client can send (the wire
/// type drops unknown fields), and the HTTP layer swaps it for signed URLs.
public enum AttachmentPayload {
    /// The internal field holding an object key.
    public static let objectKeyField = "_object_key"

    /// The object key an attachment payload holds, if any.
    public static func objectKey(in payload: JSONObject) -> ObjectKey? {
        guard case .string(let raw) = payload[objectKeyField] else { return nil }
        return ObjectKey(rawValue: raw)
    }
}
