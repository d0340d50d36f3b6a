import Foundation
import Logging

/// Link previews already fetched, by the URL asked for.
public protocol LinkPreviewStore: Sendable {
    /// The preview of `url` fetched after `since`, or nil.
    func preview(of url: String, since: Date, logger: Logger) async throws -> LinkPreview?

    /// Keeps `preview` as `url`'s, fetched now.
    func keep(_ preview: LinkPreview, logger: Logger) async throws
}
