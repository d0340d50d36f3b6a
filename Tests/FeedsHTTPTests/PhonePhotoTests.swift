import CVips
import Crypto
import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

@testable import FeedsMedia

/// A photo a phone took on its side: stored 40×20 with EXIF orientation 6 (turn right to show) and
/// a GPS tag, white on top. It is stored without the GPS tag, its attachment says the size it is
/// shown at, and its thumbnail comes upright.
@Suite struct PhonePhotoTests {
    /// A directory of its own for a test's files.
    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("phone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The sideways photo, written in `directory`; its path.
    static func phonePhoto(in directory: URL) throws -> String {
        let photo = directory.appendingPathComponent("photo.jpg").path
        try Vips.start()
        try #require(feeds_vips_save_oriented(photo, 40, 20, 6) == 0)
        return photo
    }

    @Test(arguments: Backend.allCases) func aSidewaysPhotoIsShownUpright(backend: Backend) async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = try Self.phonePhoto(in: directory)

        try await TestServer.run(backend: backend) { server in
            var form = MultipartForm()
            form.add(
                "activity",
                json: #"{"type":"post","feeds":["user:alice"],"attachment_uploads":[{"type":"image","file":"p"}]}"#)
            form.add("p", fileName: "IMG_0001.jpg", try Data(contentsOf: URL(fileURLWithPath: photo)))
            let reply = try await server.upload("/feeds/activities", as: "alice", form: form)
            #expect(reply.status == 201, "\(reply.text)")
            let attachment = reply.body["activity"]["attachments"][0]
            #expect(attachment["original_width"].int == 20 && attachment["original_height"].int == 40, "\(attachment)")

            // The original is stored without its GPS tag (or any other metadata), still sideways
            // for browsers to turn, with the size and hash of what is stored.
            let original = try await server.fetch(try #require(attachment["image_url"].string))
            #expect(original.status == 200)
            let sent = try Data(contentsOf: URL(fileURLWithPath: photo))
            #expect(original.data != sent && original.data.count < sent.count)
            #expect(try ImageMetadata.strip(original.data, mimeType: "image/jpeg") == nil, "nothing left to strip")
            #expect(attachment["file_size"].int == original.data.count)
            let stored = directory.appendingPathComponent("stored.jpg").path
            try original.data.write(to: URL(fileURLWithPath: stored))
            let shown = try #require(try ImageProbe.dimensions(ofFileAt: stored))
            #expect(shown.width == 20 && shown.height == 40, "the orientation stays")
            let hash = SHA256.hash(data: original.data).map { String(format: "%02x", $0) }.joined()
            #expect(try await server.number("SELECT count(*)::int FROM cdn_objects WHERE sha256 = \(hash)") == 1)

            let thumb = try await server.fetch(try #require(attachment["thumb_url"].string))
            #expect(thumb.status == 200)
            let path = directory.appendingPathComponent("thumb.jpg").path
            try thumb.data.write(to: URL(fileURLWithPath: path))
            let size = try #require(try ImageProbe.dimensions(ofFileAt: path))
            #expect(size.height > size.width, "upright: \(size)")
            // The stored top row is shown on the right.
            var (left, right) = (0.0, 0.0)
            let half = Int32(size.width / 2)
            try #require(feeds_vips_area_mean(path, 0, 0, half, Int32(size.height), &left) == 0)
            try #require(feeds_vips_area_mean(path, Int32(size.width) - half, 0, half, Int32(size.height), &right) == 0)
            #expect(right > 230 && left < 25, "left \(left), right \(right)")
        }
    }

    /// With `strip_image_metadata` off (an app setting of this server), a photo is stored as sent.
    @Test func anAppMayKeepPhotosAsSent() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = try Self.phonePhoto(in: directory)
        let sent = try Data(contentsOf: URL(fileURLWithPath: photo))

        try await TestServer.run { server in
            #expect(try await server.api(.GET, "/app", as: "alice").body["app"]["strip_image_metadata"] == .bool(true))
            let refused = try await server.api(.PATCH, "/app", as: nil, json: #"{"strip_image_metadata":"no"}"#)
            #expect(refused.status == 400, "\(refused.text)")
            try await server.changeApp(#"{"strip_image_metadata":false}"#)
            #expect(try await server.api(.GET, "/app", as: "alice").body["app"]["strip_image_metadata"] == .bool(false))

            var form = MultipartForm()
            form.add("file", fileName: "IMG_0002.jpg", sent)
            let reply = try await server.upload("/uploads/image", as: "alice", form: form)
            #expect(reply.status == 201, "\(reply.text)")
            let stored = try await server.fetch(try #require(reply.body["file"].string))
            #expect(stored.data == sent, "stored byte for byte")
        }
    }
}
