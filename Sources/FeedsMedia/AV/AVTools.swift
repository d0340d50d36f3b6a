import FeedsCore
import Foundation

/// ffprobe and ffmpeg (Debian's), each run as a process of its own rather than libav in ours: a
/// decoder that crashes or runs away on a hostile file takes only itself down. The kernel holds
/// each run to an address-space cap (`prlimit`) and the clock to `limit` (then it is killed);
/// it gets one thread, no standard input, the `file` protocol only (no network), and its one
/// input is named with its demuxer (`AVTypes`).
public struct AVTools: Sendable {
    let ffprobe: String
    let ffmpeg: String
    let prlimit: String
    /// The most one run may take.
    public var limit: Duration
    /// The most address space one run may map.
    public var memoryBytes: Int

    /// Posters are kept at most this wide and high; their variants are made from them.
    static let posterSide = 1920
    /// A picture larger than this gets no poster: decoding one frame of it would hold too much.
    static let maxPixels = 40_000_000

    /// The tools on `PATH`; nil when ffmpeg is not installed.
    public static func find(limit: Duration = .seconds(30), memoryBytes: Int = 1 << 30) -> AVTools? {
        guard let ffprobe = Subprocess.find("ffprobe"), let ffmpeg = Subprocess.find("ffmpeg"),
            let prlimit = Subprocess.find("prlimit", in: ["/usr/bin", "/bin"])
        else { return nil }
        return AVTools(ffprobe: ffprobe, ffmpeg: ffmpeg, prlimit: prlimit, limit: limit, memoryBytes: memoryBytes)
    }

    /// What the audio or video file at `path` (sniffed as `mimeType`) holds; nil when it is not a
    /// type we describe, or ffprobe could not read it in time.
    public func probe(_ path: String, mimeType: String) async -> MediaInfo? {
        guard let demuxer = AVTypes.demuxer(for: mimeType) else { return nil }
        let entries =
            "format=duration:stream=codec_type,codec_name,width,height"
            + ":stream_disposition=attached_pic:stream_side_data=rotation"
        guard
            let run = try? await run(
                ffprobe,
                [
                    "-v", "error", "-protocol_whitelist", "file", "-f", demuxer, "-show_entries", entries, "-of", "json",
                    "file:" + path,
                ]),
            run.status == 0, !run.timedOut,
            let json = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        else { return nil }
        return MediaInfo.parse(json)
    }

    /// Writes a poster of the video at `path` to `destination` as a JPEG, upright, at most
    /// `posterSide` a side: the frame at one second (past the black a video often opens with),
    /// or the first when it is shorter.
    ///
    /// - Throws: `FeedsError` (`.input`) when the file has no picture ffmpeg can take one from in time.
    /// `known` is what a probe found already (an upload's), so that it is not probed twice.
    public func poster(of path: String, mimeType: String, known: MediaInfo? = nil, to destination: String) async throws {
        var found = known
        if found == nil { found = await probe(path, mimeType: mimeType) }
        guard let demuxer = AVTypes.demuxer(for: mimeType), let info = found,
            let width = info.width, let height = info.height
        else { throw FeedsError.input("this file has no picture to take a poster from", field: "w") }
        guard width * height <= Self.maxPixels else {
            throw FeedsError.input("this video is \(width)×\(height), over \(Self.maxPixels) pixels for a poster", field: "w")
        }
        let side = Self.posterSide
        for seconds in (info.duration ?? 0) >= 2 ? ["1", "0"] : ["0"] {
            unlink(destination)
            let run = try await run(
                ffmpeg,
                [
                    "-nostdin", "-v", "error", "-threads", "1", "-filter_threads", "1", "-protocol_whitelist", "file",
                    "-ss", seconds, "-f", demuxer, "-i", "file:" + path, "-map", "0:v:0", "-frames:v", "1", "-an", "-sn", "-dn",
                    "-vf", "scale=w='min(\(side),iw)':h='min(\(side),ih)':force_original_aspect_ratio=decrease",
                    "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact",
                    "-f", "image2", "-update", "1", "-c:v", "mjpeg", "-q:v", "3", "-y", "file:" + destination,
                ])
            if run.timedOut { break }
            if run.status == 0, let size = try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int, size > 0
            {
                return
            }
        }
        unlink(destination)
        throw FeedsError.input("no poster frame could be read from this video", field: "w")
    }

    /// Decodes the BMP at `path` into a PNG at `destination`, for the formats libvips reads only
    /// through loaders that stay blocked (ImageMagick): ffmpeg's decoder, fuzzed as its video
    /// decoders are, in a process of its own under the same memory and time caps. The caller
    /// checks the header's size against the pixel limit first.
    ///
    /// - Throws: `FeedsError` (`.input`) when ffmpeg cannot decode it in time.
    public func decodeBMP(_ path: String, to destination: String) async throws {
        unlink(destination)
        let run = try await run(
            ffmpeg,
            [
                "-nostdin", "-v", "error", "-threads", "1", "-protocol_whitelist", "file", "-f", "bmp_pipe",
                "-i", "file:" + path, "-frames:v", "1", "-map_metadata", "-1", "-fflags", "+bitexact",
                "-flags:v", "+bitexact", "-f", "image2", "-update", "1", "-c:v", "png", "-y", "file:" + destination,
            ])
        if !run.timedOut, run.status == 0,
            let size = try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int,
            size > 0
        {
            return
        }
        unlink(destination)
        throw FeedsError.input("the image cannot be decoded, so it cannot be resized", field: "w")
    }

    /// The loudness of the audio at `path` in `bars` equal slices, each its peak from 0 (silence)
    /// to 1 (full scale), as Stream's voice recordings carry in `waveform_data`; nil when it
    /// cannot be read in time.
    public func waveform(of path: String, mimeType: String, duration: Double, bars: Int = 100) async -> [Double]? {
        guard let demuxer = AVTypes.demuxer(for: mimeType), duration > 0, duration.isFinite else { return nil }
        // At 8 kHz, `bars` windows of equal length cover the whole recording.
        let rate = 8000.0
        let window = max(1, Int((duration * rate / Double(bars)).rounded(.up)))
        let filter =
            "aformat=channel_layouts=mono,aresample=\(Int(rate)),asetnsamples=n=\(window):p=0,"
            + "astats=metadata=1:reset=1,ametadata=mode=print:key=lavfi.astats.Overall.Peak_level:file=/dev/stdout"
        guard
            let run = try? await run(
                ffmpeg,
                [
                    "-nostdin", "-v", "error", "-threads", "1", "-filter_threads", "1", "-protocol_whitelist", "file",
                    "-f", demuxer, "-i", "file:" + path, "-map", "0:a:0", "-af", filter, "-f", "null", "-",
                ]),
            run.status == 0, !run.timedOut
        else { return nil }
        let peaks = run.stdout.split(separator: "\n").compactMap { line -> Double? in
            guard let equals = line.firstIndex(of: "="), line.hasPrefix("lavfi.astats.Overall.Peak_level") else { return nil }
            let decibels = Double(line[line.index(after: equals)...]) ?? -.infinity
            return decibels.isFinite ? min(1, max(0, pow(10, decibels / 20))) : 0
        }
        guard !peaks.isEmpty else { return nil }
        return peaks.prefix(bars).map { ($0 * 1000).rounded() / 1000 }
    }

    private func run(_ tool: String, _ arguments: [String]) async throws -> (
        status: Int32, timedOut: Bool, stdout: String, stderr: String
    ) {
        try await Subprocess.capture([prlimit, "--as=\(memoryBytes)", "--", tool] + arguments, limit: limit)
    }
}
