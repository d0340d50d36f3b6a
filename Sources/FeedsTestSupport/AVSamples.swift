import FeedsCore
import Foundation

/// Audio and video files for the tests, made by ffmpeg from its own test sources: a test that
/// needs one fails, never skips, when ffmpeg is missing.
public enum AVSamples {
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes `name` (its extension picks the container) under a fresh directory: `seconds` of a
    /// 320×240 test picture with a 440 Hz tone, or the tone alone (`video: false`), or silence
    /// (`silent`); `rotation` sets the display matrix phones write.
    public static func make(
        _ name: String, seconds: Double = 2, video: Bool = true, silent: Bool = false, rotation: Int? = nil,
        codec: [String] = []
    ) async throws -> URL {
        guard let ffmpeg = Subprocess.find("ffmpeg") else { throw Missing(description: "ffmpeg is not installed") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-av-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        var arguments = [ffmpeg, "-nostdin", "-v", "error", "-y"]
        if video { arguments += ["-f", "lavfi", "-i", "testsrc=size=320x240:rate=25"] }
        arguments += ["-f", "lavfi", "-i", silent ? "anullsrc=r=44100:cl=mono" : "sine=frequency=440:sample_rate=44100"]
        arguments += ["-t", "\(seconds)"] + codec
        if video, name.hasSuffix(".mp4") || name.hasSuffix(".mov") { arguments += ["-c:v", "libx264", "-pix_fmt", "yuv420p"] }
        guard let rotation else {
            try await Subprocess.run(arguments + [url.path])
            return url
        }
        // ffmpeg 5 writes the rotation of a stream it copies, not of one it encodes.
        let plain = directory.appendingPathComponent("plain-" + name)
        try await Subprocess.run(arguments + [plain.path])
        try await Subprocess.run([
            ffmpeg, "-nostdin", "-v", "error", "-y", "-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=\(rotation)", url.path,
        ])
        return url
    }
}
