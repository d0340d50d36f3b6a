import Foundation
import NIOConcurrencyHelpers

/// A file part as it arrived: on disk in the temp directory, hashed, not yet checked.
struct ReceivedFile: Sendable {
    /// The multipart part's name.
    var part: String
    /// The client's file name (only ever a display name and the end of a key).
    var fileName: String
    /// The client's Content-Type for the part: a hint, never trusted.
    var declaredType: String?
    var url: URL
    var size: Int64
    var sha256: String
}

/// Removes a request's temp files however the request ends: the ones the CDN took are gone
/// already (renamed), the rest must not outlive the request.
final class TempFiles: Sendable {
    private let urls = NIOLockedValueBox<[URL]>([])

    func track(_ url: URL) { urls.withLockedValue { $0.append(url) } }

    func removeAll() {
        for url in urls.withLockedValue({ urls in
            defer { urls.removeAll() }; return urls
        }) {
            try? FileManager.default.removeItem(at: url)
        }
    }
}
