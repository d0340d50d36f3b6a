import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

@testable import FeedsMedia

/// Videos and voice recordings as feed apps show them: a video gets its poster as `thumb_url`
/// (upright, with size variants, gone with the video), its size as shown and its duration; a
/// voice recording its duration and waveform; a file that is not what it claims is kept as a
/// plain file.
@Suite struct VideoUploadTests {
    @Test(arguments: Backend.allCases) func aPhoneVideoGetsAnUprightPosterAndItsDuration(backend: Backend) async throws {
        let video = try await AVSamples.make("clip.mp4", rotation: 90)
        try await TestServer.run(backend: backend) { server in
            var form = MultipartForm()
            form.add(
                "activity",
                json: #"""
                    {"type":"post","feeds":["user:alice"],
                     "attachment_uploads":[{"type":"video","file":"v","custom":{"duration":9999,"caption":"at the beach"}}]}
                    """#)
            form.add("v", fileName: "IMG_0002.MP4", try Data(contentsOf: video))
            let reply = try await server.upload("/feeds/activities", as: "alice", form: form)
            #expect(reply.status == 201, "\(reply.text)")
            let attachment = reply.body["activity"]["attachments"][0]
            #expect(attachment["mime_type"].string == "video/mp4")
            #expect(attachment["original_width"].int == 240 && attachment["original_height"].int == 320, "\(attachment)")
            // What the server measured stands over what the client said; the rest of custom stays.
            let duration = try #require(attachment["custom"]["duration"].double, "\(attachment)")
            #expect(abs(duration - 2) < 0.1)
            #expect(attachment["custom"]["codec"].string == "h264")
            #expect(attachment["custom"]["caption"].string == "at the beach")
            #expect(attachment["image_url"] == .null, "a video has no image_url")

            // The poster: a JPEG, upright, within 512×512; any other size of it on request.
            let thumbURL = try #require(attachment["thumb_url"].string, "\(attachment)")
            let thumb = try await server.fetch(thumbURL)
            #expect(thumb.status == 200 && thumb.headers["Content-Type"].first == "image/jpeg", "\(thumb.status)")
            let size = try Self.dimensions(of: thumb.data)
            #expect(size.width < size.height && max(size.width, size.height) <= 512, "\(size)")
            let small = try await server.fetch(thumbURL.replacingOccurrences(of: "&w=512&h=512", with: "&w=60"))
            #expect(try Self.dimensions(of: small.data).width == 60)

            // The same activity read again says the same.
            let id = try #require(reply.body["activity"]["id"].string)
            let read = try await server.api(.GET, "/feeds/activities/\(id)", as: "alice")
            #expect(read.body["activity"]["attachments"][0]["thumb_url"].string?.contains("&w=512&h=512") == true)

            // Deleting the video takes its poster and the poster's variants along.
            let asset = try #require(attachment["asset_url"].string)
            let deleted = try await server.api(.DELETE, "/uploads/file", as: "alice", query: "&url=\(Self.escaped(asset))")
            #expect(deleted.status == 200, "\(deleted.text)")
            #expect(try await server.fetch(thumbURL).status == 404)
        }
    }

    @Test func aStandaloneVideoUploadAnswersWithItsPoster() async throws {
        let video = try await AVSamples.make("clip.webm", codec: ["-c:v", "libvpx-vp9", "-b:v", "100k"])
        try await TestServer.run { server in
            var form = MultipartForm()
            form.add("file", fileName: "clip.webm", try Data(contentsOf: video))
            let reply = try await server.upload("/uploads/file", as: "alice", form: form)
            #expect(reply.status == 201, "\(reply.text)")
            let thumb = try await server.fetch(try #require(reply.body["thumb_url"].string, "\(reply.text)"))
            #expect(thumb.status == 200 && thumb.headers["Content-Type"].first == "image/jpeg")
            let size = try Self.dimensions(of: thumb.data)
            #expect(size.width > size.height, "\(size)")
            // The object's record has the size as shown, for a later link by URL.
            let file = try #require(reply.body["file"].string)
            let linked = try await server.api(
                .POST, "/feeds/activities", as: "alice",
                json: #"""
                    {"type":"post","feeds":["user:alice"],
                     "attachments":[{"type":"video","asset_url":"\#(file)","custom":{"duration":9999,"codec":"mine","caption":"hi"}}]}
                    """#)
            #expect(linked.status == 201, "\(linked.text)")
            let attachment = linked.body["activity"]["attachments"][0]
            #expect(attachment["original_width"].int == 320 && attachment["thumb_url"].string != nil, "\(attachment)")
            // And its duration and codec, over what the client said; the rest of custom stays.
            #expect(abs((attachment["custom"]["duration"].double ?? 0) - 2) < 0.1, "\(attachment)")
            #expect(attachment["custom"]["codec"].string == "vp9" && attachment["custom"]["caption"].string == "hi")
            let read = try await server.api(.GET, "/feeds/activities/\(linked.body["activity"]["id"].string ?? "")", as: "alice")
            #expect(read.body["activity"]["attachments"][0]["custom"] == attachment["custom"], "\(read.text)")
        }
    }

    @Test func aVoiceRecordingGetsItsDurationAndWaveform() async throws {
        let voice = try await AVSamples.make("voice.ogg", seconds: 3, video: false)
        try await TestServer.run { server in
            var form = MultipartForm()
            form.add(
                "activity",
                json: #"{"type":"post","feeds":["user:alice"],"attachment_uploads":[{"type":"voiceRecording","file":"a"}]}"#)
            form.add("a", fileName: "voice.ogg", try Data(contentsOf: voice))
            let reply = try await server.upload("/feeds/activities", as: "alice", form: form)
            #expect(reply.status == 201, "\(reply.text)")
            let attachment = reply.body["activity"]["attachments"][0]
            #expect(abs((attachment["custom"]["duration"].double ?? 0) - 3) < 0.2, "\(attachment)")
            let bars = attachment["custom"]["waveform_data"].array.compactMap(\.double)
            #expect(bars.count == 100 && bars.allSatisfy { (0.1...0.15).contains($0) }, "\(bars)")
            #expect(attachment["thumb_url"] == .null && attachment["original_width"] == .null)
        }
    }

    /// A file sniffed as a video that ffmpeg cannot read (cut short) is stored as a plain file:
    /// no poster, no duration, no failure.
    @Test func aVideoCutShortIsKeptAsAPlainFile() async throws {
        let video = try await AVSamples.make("whole.mp4")
        let cut = Data(try Data(contentsOf: video).prefix(2000))
        try await TestServer.run { server in
            var form = MultipartForm()
            form.add(
                "activity",
                json: #"{"type":"post","feeds":["user:alice"],"attachment_uploads":[{"type":"video","file":"v"}]}"#)
            form.add("v", fileName: "cut.mp4", cut)
            let reply = try await server.upload("/feeds/activities", as: "alice", form: form)
            #expect(reply.status == 201, "\(reply.text)")
            let attachment = reply.body["activity"]["attachments"][0]
            #expect(attachment["thumb_url"] == .null && attachment["custom"]["duration"] == .null, "\(attachment)")
            #expect(attachment["file_size"].int == 2000)
            // Asking for a poster of it anyway is a clear 400, not a hang or a 500.
            let asset = try #require(attachment["asset_url"].string)
            let poster = try await server.fetch(asset + "&w=100")
            #expect(poster.status == 400, "\(poster.text)")
        }
    }

    static func dimensions(of data: Data) throws -> (width: Int, height: Int) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("thumb-\(UUID().uuidString)").path
        defer { unlink(path) }
        try data.write(to: URL(fileURLWithPath: path))
        return try #require(try ImageProbe.dimensions(ofFileAt: path))
    }

    static func escaped(_ url: String) -> String {
        url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url
    }
}
