/// An attachment as stored: the payload a client sees, and, when it holds one of our uploads,
/// that object's key in a field of its own. No request shape carries a key: keys come only from
/// linking (a URL of ours, checked for owner and kind) or from an upload in the same request,
/// and every response signs URLs for them afresh.
public struct StoredAttachment: Sendable, Hashable {
    /// The wire `Attachment` object, without URLs of our objects.
    public var payload: JSONObject
    /// The object this attachment holds, if it is one of ours.
    public var objectKey: ObjectKey?

    public init(payload: JSONObject, objectKey: ObjectKey? = nil) {
        self.payload = payload
        self.objectKey = objectKey
    }

    /// The attachment's `type`, when it has one.
    public var type: String? {
        if case .string(let type) = payload["type"] { type } else { nil }
    }
}
