import AsyncHTTPClient
import FeedsCore
import Foundation
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

extension S3CDN {
    /// The bytes live in the store, not here.
    public func localPath(for key: ObjectKey) -> String? { nil }

    /// Fetches an object into a local file (to resize it here), streamed to disk chunk by chunk.
    public func download(_ key: ObjectKey, to path: String) async throws {
        let url = presignedURL(for: key, notAfter: Date().addingTimeInterval(Self.redirectLifetime))
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(120))
        guard response.status == .ok else {
            throw CDNError(transient: response.status.code >= 500, "fetching \(key) from the store: HTTP \(response.status.code)")
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CDNError(transient: false, "cannot write \(path)") }
        defer { close(descriptor) }
        for try await chunk in response.body {
            let bytes = Array(chunk.readableBytesView)
            try await BlockingIO.run {
                var offset = 0
                while offset < bytes.count {
                    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { throw CDNError(transient: false, "cannot write \(path)") }
                    offset += written
                }
            }
        }
    }
}
