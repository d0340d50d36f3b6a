import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

@testable import FeedsMedia

/// ffprobe and ffmpeg as the uploads use them: what a file holds, a poster upright, a voice
/// recording's loudness; and a hostile or hung run held to its caps.
@Suite struct AVToolsTests {
    static func tools(limit: Duration = .seconds(120), memoryBytes: Int = 1 << 30) throws -> AVTools {
        try #require(AVTools.find(limit: limit, memoryBytes: memoryBytes), "ffmpeg, ffprobe and prlimit must be installed")
    }

    @Test func aPhoneVideoIsDescribedAsShownAndItsPosterIsUpright() async throws {
        let video = try await AVSamples.make("phone.mp4", rotation: 90)
        let type = try MediaSniffer.mimeType(ofFileAt: video.path)
        #expect(type == "video/mp4")
        let info = try #require(try await Self.tools().probe(video.path, mimeType: type))
        #expect(info.width == 240 && info.height == 320, "\(info)")
        #expect(info.codec == "h264")
        #expect(abs((info.duration ?? 0) - 2) < 0.1, "\(info)")

        let poster = video.deletingLastPathComponent().appendingPathComponent("poster.jpg").path
        try await Self.tools().poster(of: video.path, mimeType: type, to: poster)
        #expect(try MediaSniffer.mimeType(ofFileAt: poster) == "image/jpeg")
        let size = try #require(try ImageProbe.dimensions(ofFileAt: poster))
        #expect(size.width == 240 && size.height == 320, "\(size)")
    }

    @Test(arguments: [("clip.webm", "vp9"), ("clip.mkv", "h264"), ("clip.mov", "h264")])
    func otherContainersAreDescribed(name: String, codec: String) async throws {
        let video = try await AVSamples.make(name, codec: name == "clip.webm" ? ["-c:v", "libvpx-vp9", "-b:v", "100k"] : [])
        let type = try MediaSniffer.mimeType(ofFileAt: video.path)
        let info = try #require(try await Self.tools().probe(video.path, mimeType: type), "\(type)")
        #expect(info.width == 320 && info.height == 240 && info.codec == codec, "\(info)")
    }

    @Test(arguments: ["voice.ogg", "voice.mp3", "voice.m4a", "voice.wav", "voice.flac"])
    func audioHasADurationAndNoPicture(name: String) async throws {
        let audio = try await AVSamples.make(name, seconds: 3, video: false)
        let type = try MediaSniffer.mimeType(ofFileAt: audio.path)
        let info = try #require(try await Self.tools().probe(audio.path, mimeType: type), "\(type)")
        #expect(!info.hasVideo && info.codec != nil, "\(info)")
        #expect(abs((info.duration ?? 0) - 3) < 0.2, "\(info)")
        let poster = audio.deletingLastPathComponent().appendingPathComponent("poster.jpg").path
        await #expect(throws: FeedsError.self) { try await Self.tools().poster(of: audio.path, mimeType: type, to: poster) }
    }

    /// The tone is at an eighth of full scale: every bar says so; silence is all zeros.
    @Test func aVoiceRecordingsWaveformIsItsLoudness() async throws {
        let tone = try await AVSamples.make("tone.ogg", seconds: 3, video: false)
        let bars = try #require(try await Self.tools().waveform(of: tone.path, mimeType: "audio/ogg", duration: 3))
        #expect(bars.count == 100)
        #expect(bars.allSatisfy { (0.1...0.15).contains($0) }, "\(bars)")
        let silence = try await AVSamples.make("silence.ogg", seconds: 3, video: false, silent: true)
        let quiet = try #require(try await Self.tools().waveform(of: silence.path, mimeType: "audio/ogg", duration: 3))
        #expect(!quiet.isEmpty && quiet.allSatisfy { $0 == 0 }, "\(quiet)")
    }

    /// Bytes that are not the media their type says, or a file cut short: no description, no
    /// poster, and no hang.
    @Test func aFileThatIsNotTheMediaItClaimsIsNotDescribed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-av-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let noise = directory.appendingPathComponent("noise.mp4")
        try Data((0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: noise)
        #expect(try await Self.tools().probe(noise.path, mimeType: "video/mp4") == nil)
        let video = try await AVSamples.make("whole.mp4")
        let cut = directory.appendingPathComponent("cut.mp4")
        try Data(try Data(contentsOf: video).prefix(2000)).write(to: cut)
        let poster = directory.appendingPathComponent("poster.jpg").path
        await #expect(throws: FeedsError.self) { try await Self.tools().poster(of: cut.path, mimeType: "video/mp4", to: poster) }
        #expect(!FileManager.default.fileExists(atPath: poster))
    }

    /// Playlists and concat lists open other files and URLs: no demuxer is ever guessed for them.
    @Test func onlyNamedDemuxersRead() {
        for type in ["application/vnd.apple.mpegurl", "audio/x-mpegurl", "text/plain", "application/octet-stream", "image/png"] {
            #expect(AVTypes.demuxer(for: type) == nil, "\(type)")
        }
        #expect(AVTypes.demuxer(for: "video/mp4") == "mov")
    }

    /// The address-space cap holds: ffprobe cannot even start within 16 MB.
    @Test func eachRunIsHeldToItsMemoryCap() async throws {
        let video = try await AVSamples.make("capped.mp4")
        #expect(try await Self.tools().probe(video.path, mimeType: "video/mp4") != nil)
        #expect(try await Self.tools(memoryBytes: 16 << 20).probe(video.path, mimeType: "video/mp4") == nil)
    }

    /// A run past its limit is killed, and says so.
    @Test func aRunPastItsLimitIsKilled() async throws {
        let run = try await hangGuard("sleep under a 1 s limit", seconds: 120) {
            try await Subprocess.capture(["/bin/sleep", "600"], limit: .seconds(1))
        }
        #expect(run.timedOut)
        #expect(run.status == 128 + SIGKILL)
    }
}
