import FeedsCore
import Foundation
import NIOConcurrencyHelpers

/// A file part as it arrived: on disk in the temp directory, hashed, not yet checked.
package struct ReceivedFile: Sendable {
    /// The multipart part's name.
    package var part: String
    /// The client's file name (only ever a display name and the end of a key).
    package var fileName: String
    /// The client's Content-Type for the part: a hint, never trusted.
    package var declaredType: String?
    package var url: URL
    package var size: Int64
    package var sha256: String
    package var metadata: Metadata

    /// What became of a photo's metadata as it was written (`TempFileWriter`).
    package enum Metadata: Sendable {
        /// Written as sent: stripping is off, or it is not a JPEG (`FileChecker` strips the rest).
        case asSent
        /// A JPEG, written without its metadata.
        case stripped
        /// A JPEG whose structure is broken, so its metadata could not be told apart: refused.
        case broken(FeedsError)
    }

    package init(
        part: String, fileName: String, declaredType: String?, url: URL, size: Int64, sha256: String,
        metadata: Metadata = .asSent
    ) {
        self.part = part
        self.fileName = fileName
        self.declaredType = declaredType
        self.url = url
        self.size = size
        self.sha256 = sha256
        self.metadata = metadata
    }
}

/// Removes a request's temp files however the request ends: the ones the CDN took are gone
/// already (renamed), the rest must not outlive the request.
package final class TempFiles: Sendable {
    private let urls = NIOLockedValueBox<[URL]>([])

    package init() {}

    package func track(_ url: URL) { urls.withLockedValue { $0.append(url) } }

    package func removeAll() {
        for url in urls.withLockedValue({ urls in
            defer { urls.removeAll() }; return urls
        }) {
            try? FileManager.default.removeItem(at: url)
        }
    }
}
