import FeedsCore

/// How stored files are served so that none can attack its reader: only raster images, audio and
/// video render inline; everything else (SVG, HTML and PDF included) downloads.
public enum ServingPolicy {
    /// The `Content-Disposition` to serve `key` with: nil (inline) for plain media, else `attachment`.
    public static func contentDisposition(for key: ObjectKey, mimeType: String) -> String? {
        let type = mimeType.lowercased()
        let inline = (type.hasPrefix("image/") && type != "image/svg+xml") || type.hasPrefix("audio/") || type.hasPrefix("video/")
        guard !inline else { return nil }
        return "attachment; filename=\"\(key.fileName.replacingOccurrences(of: "\"", with: ""))\""
    }
}
