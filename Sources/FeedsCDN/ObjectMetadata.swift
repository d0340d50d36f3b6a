import Foundation

/// What the file system does not keep about an object, in its JSON sidecar.
struct ObjectMetadata: Codable, Sendable, Hashable {
    var mimeType: String
    var size: Int64
    var sha256: String

    enum CodingKeys: String, CodingKey {
        case mimeType = "mime_type"
        case size
        case sha256
    }

    /// Sidecars are a few hundred bytes; anything larger is not one of ours.
    static let sizeLimit = 16 * 1024
}
