/// What a probe found in an audio or video file.
public struct MediaInfo: Sendable, Equatable {
    /// Seconds.
    public var duration: Double?
    /// The picture's size as shown: a phone video's rotation applied.
    public var width: Int?
    public var height: Int?
    /// The first video stream's codec, else the first audio stream's (`h264`, `opus`).
    public var codec: String?
    /// Whether there is a picture (cover art aside) to take a poster frame from.
    public var hasVideo: Bool { width != nil && height != nil }

    public init(duration: Double? = nil, width: Int? = nil, height: Int? = nil, codec: String? = nil) {
        (self.duration, self.width, self.height, self.codec) = (duration, width, height, codec)
    }

    /// ffprobe's JSON (`-show_entries format=duration:stream=…`), read defensively: whatever it
    /// printed, a file with hundreds of streams included.
    static func parse(_ json: [String: Any]) -> MediaInfo? {
        var info = MediaInfo()
        if let format = json["format"] as? [String: Any], let text = format["duration"] as? String,
            let seconds = Double(text), seconds.isFinite, seconds >= 0
        {
            info.duration = seconds
        }
        let streams = (json["streams"] as? [[String: Any]]) ?? []
        let pictures = streams.filter { stream in
            stream["codec_type"] as? String == "video"
                && ((stream["disposition"] as? [String: Any])?["attached_pic"] as? Int ?? 0) == 0
        }
        if let video = pictures.first, let width = video["width"] as? Int, let height = video["height"] as? Int,
            width > 0, height > 0
        {
            let rotation = ((video["side_data_list"] as? [[String: Any]]) ?? []).compactMap { $0["rotation"] as? Int }.first ?? 0
            let turned = abs(rotation) % 180 == 90
            (info.width, info.height) = turned ? (height, width) : (width, height)
            info.codec = video["codec_name"] as? String
        } else if let audio = streams.first(where: { $0["codec_type"] as? String == "audio" }) {
            info.codec = audio["codec_name"] as? String
        }
        guard info.duration != nil || info.codec != nil else { return nil }
        return info
    }
}
