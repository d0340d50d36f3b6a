import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// A TIFF, which browsers other than Safari do not show, is taken as an image: stored without its
/// GPS, EXIF, XMP, maker and model, its size as shown, its thumbnail and variants JPEG.
@Suite struct TIFFUploadTests {
    @Test func aCameraTIFFIsStoredCleanAndShownAsJPEG() async throws {
        let tiff = TIFFWriter.camera()
        try await TestServer.run { server in
            var form = MultipartForm()
            form.add("file", fileName: "scan.tif", Data(tiff))
            let uploaded = try await server.upload("/uploads/image", as: "alice", form: form)
            #expect(uploaded.status == 201, "\(uploaded.text)")
            let url = try #require(uploaded.body["file"].string, "\(uploaded.text)")

            let stored = try await server.fetch(url)
            #expect(stored.status == 200 && stored.data.count == tiff.count, "\(stored.status)")
            let bytes = [UInt8](stored.data)
            #expect(
                !bytes.indices.dropLast(TIFFWriter.gpsLatitude.count).contains {
                    bytes[$0...].starts(with: TIFFWriter.gpsLatitude)
                })
            #expect(stored.data.range(of: Data("PhoneCo".utf8)) == nil && stored.data.range(of: Data("xmpmeta".utf8)) == nil)
            #expect(Array(bytes.suffix(TIFFWriter.pixels.count)) == TIFFWriter.pixels)

            let thumb = try await server.fetch(try #require(uploaded.body["thumb_url"].string))
            #expect(thumb.status == 200 && thumb.headers["Content-Type"].first == "image/jpeg", "\(thumb.headers)")
            let variant = try await server.fetch(url + "&w=8")
            #expect(variant.headers["Content-Type"].first == "image/jpeg")
            let size = try VideoUploadTests.dimensions(of: variant.data)
            #expect(size.width == 8 && size.height == 16, "upright (orientation 6 applied): \(size)")

            // Attached to a post, its size is the one it is shown at.
            let posted = try await server.api(
                .POST, "/feeds/activities", as: "alice",
                json: #"{"type":"post","feeds":["user:alice"],"attachments":[{"type":"image","image_url":"\#(url)"}]}"#)
            let attachment = posted.body["activity"]["attachments"][0]
            #expect(attachment["original_width"].int == 2 && attachment["original_height"].int == 4, "\(posted.text)")
        }
    }
}
