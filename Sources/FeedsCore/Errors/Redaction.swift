/// Secrets that must never reach a log line: tokens (JWTs), URL signatures and presigned S3
/// credentials, and `Authorization` values. What is left says where they were.
package enum Redaction {
    /// `text` with every secret-shaped part replaced by `[redacted]`.
    package static func scrub(_ text: String) -> String {
        // Most lines hold none of the markers: one pass over them, no copy.
        guard markers.contains(where: { text.localizedCaseInsensitiveContains($0) }) else { return text }
        var text = text
        text.replace(jwt, with: "[redacted token]")
        text.replace(signed) { "\($0.output.1)\($0.output.2)[redacted]" }
        text.replace(authorization) { "\($0.output.1)[redacted]" }
        return text
    }

    private static let markers = ["eyJ", "signature=", "x-amz-", "authorization"]
    nonisolated(unsafe) private static let jwt = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/
    nonisolated(unsafe) private static let signed =
        /(?i)((?:X-Amz-)?Signature|X-Amz-Credential|X-Amz-Security-Token)(=|%3D)[^&%\s"'<>\]]+/
    nonisolated(unsafe) private static let authorization = /(?i)(authorization["']?\s*[:=]\s*["']?)(?:Bearer\s+)?[^\s"',;]+/
}
