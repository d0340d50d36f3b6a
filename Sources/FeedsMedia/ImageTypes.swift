/// The image types the image endpoint and `image` attachments accept, and the types that must
/// never pass for an image.
public enum ImageTypes {
    /// The MIME types an image upload may sniff as.
    ///
    /// SVG is among them: it can carry script, so the CDN serves it as an attachment under a
    /// sandboxing `Content-Security-Policy` rather than refusing it here.
    public static let allowed: Set<String> = [
        "image/bmp",
        "image/gif",
        "image/jpeg",
        "image/png",
        "image/webp",
        "image/heic",
        "image/heic-sequence",
        "image/heif",
        "image/heif-sequence",
        "image/tiff",
        "image/svg+xml",
    ]

    /// Types a browser runs as a document or a script: markup (HTML, XHTML, and generic XML, which
    /// may hold XHTML or a stylesheet with script) and JavaScript.
    static let activeContent: Set<String> = [
        "text/html",
        "application/xhtml+xml",
        "text/xml",
        "application/xml",
        "application/javascript",
        "application/x-javascript",
        "application/ecmascript",
        "text/javascript",
        "text/ecmascript",
    ]

    /// Whether bytes sniffed as `sniffed` are active content, so that a file declared or named as
    /// an image but holding them (an `.png` that is HTML) must be refused with a clear error rather
    /// than stored as a plain file.
    ///
    /// libmagic rarely recognises bare JavaScript (it says `text/plain`); such files still fail
    /// the image check, since `text/plain` is not in `allowed`.
    public static func isDangerous(sniffed: String) -> Bool {
        activeContent.contains(MediaSniffer.normalized(sniffed))
    }
}
