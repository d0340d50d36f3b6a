/// The audio and video types ffmpeg describes, each read with one demuxer named up front: never
/// one ffmpeg guesses, so a playlist or a concat list (which open other files and URLs) never runs.
public enum AVTypes {
    /// ffmpeg's demuxer for a sniffed type; nil when it is not audio or video we describe.
    public static func demuxer(for mimeType: String) -> String? {
        switch MediaSniffer.normalized(mimeType) {
        case "video/mp4", "video/quicktime", "video/3gpp", "audio/mp4", "audio/x-m4a": "mov"
        case "video/webm", "video/x-matroska", "audio/webm", "audio/x-matroska": "matroska"
        case "audio/mpeg": "mp3"
        case "audio/ogg", "video/ogg": "ogg"
        case "audio/x-wav", "audio/wav": "wav"
        case "audio/flac", "audio/x-flac": "flac"
        case "audio/aac", "audio/x-hx-aac-adts": "aac"
        default: nil
        }
    }

    /// Whether a sniffed type may hold a picture to take a poster frame from.
    public static func isVideo(_ mimeType: String) -> Bool {
        MediaSniffer.normalized(mimeType).hasPrefix("video/") && demuxer(for: mimeType) != nil
    }
}
