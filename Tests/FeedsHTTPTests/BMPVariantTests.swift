import CVips
import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

@testable import FeedsMedia

/// A BMP, which libvips reads only through a loader that stays blocked, is decoded by ffmpeg in a
/// capped process of its own: its variants and thumbnails come out as JPEG (WebP for a client that
/// takes it), upright; a header that lies about its size is refused before any decode.
@Suite struct BMPVariantTests {
    @Test func aBMPsVariantsAreJPEGAndUpright() async throws {
        try await TestServer.run { server in
            var form = MultipartForm()
            form.add("file", fileName: "scan.bmp", Data(BMPWriter.halves(width: 200, height: 100)))
            let uploaded = try await server.upload("/uploads/image", as: "alice", form: form)
            let url = try #require(uploaded.body["file"].string, "\(uploaded.text)")
            #expect(uploaded.body["thumb_url"].string != nil, "\(uploaded.text)")

            let variant = try await server.fetch(url + "&w=50&h=25&resize=scale")
            #expect(variant.status == 200 && variant.headers["Content-Type"].first == "image/jpeg", "\(variant.headers)")
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("v.jpg").path
            try variant.data.write(to: URL(fileURLWithPath: path))
            let size = try #require(try ImageProbe.dimensions(ofFileAt: path))
            #expect(size.width == 50 && size.height == 25, "\(size)")
            // The top stays on top: BMP stores its rows bottom-up.
            var (top, bottom) = (0.0, 0.0)
            try #require(feeds_vips_area_mean(path, 0, 0, 50, 10, &top) == 0)
            try #require(feeds_vips_area_mean(path, 0, 15, 50, 10, &bottom) == 0)
            #expect(top > 230 && bottom < 25, "top \(top), bottom \(bottom)")

            let webp = try await server.fetch(url + "&w=50", headers: [("Accept", "image/webp")])
            #expect(webp.headers["Content-Type"].first == "image/webp" && webp.headers["Vary"].first == "Accept")
            // The original is served as stored.
            #expect(try await server.fetch(url).data == Data(BMPWriter.halves(width: 200, height: 100)))
        }
    }

    @Test func aBMPThatLiesOrIsCutIsRefused() async throws {
        try await TestServer.run { server in
            // A header saying 100,000 rows over 200 columns: 20 million pixels, never decoded.
            let tall = BMPWriter.halves(width: 200, height: 10, claimedHeight: 100_000)
            for (name, data) in [("tall.bmp", tall), ("cut.bmp", Array(BMPWriter.halves(width: 200, height: 100).prefix(2_000)))]
            {
                var form = MultipartForm()
                form.add("file", fileName: name, Data(data))
                let uploaded = try await server.upload("/uploads/image", as: "alice", form: form)
                guard let url = uploaded.body["file"].string else {
                    // Refused at upload is as good: nothing to resize.
                    #expect(uploaded.status == 400, "\(name): \(uploaded.text)")
                    continue
                }
                let variant = try await server.fetch(url + "&w=50")
                expectAPIError(variant, status: 400, code: 4)
            }
        }
    }
}
