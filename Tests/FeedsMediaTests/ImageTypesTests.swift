import Testing

@testable import FeedsMedia

@Suite("ImageTypes")
struct ImageTypesTests {
    @Test("the allowed set is exactly the image endpoint's types")
    func allowed() {
        #expect(
            ImageTypes.allowed == [
                "image/bmp", "image/gif", "image/jpeg", "image/png", "image/webp", "image/heic",
                "image/heic-sequence", "image/heif", "image/heif-sequence", "image/tiff", "image/svg+xml",
            ]
        )
    }

    @Test(
        "markup and script are dangerous, whatever their case or parameters",
        arguments: [
            "text/html", "Text/HTML; charset=utf-8", "application/xhtml+xml", "text/xml", "application/xml",
            "application/javascript", "text/javascript", "application/x-javascript", " text/ecmascript ",
        ]
    )
    func dangerous(type: String) {
        #expect(ImageTypes.isDangerous(sniffed: type))
    }

    @Test(
        "images (SVG included) and inert files are not dangerous",
        arguments: Array(ImageTypes.allowed) + ["application/pdf", "text/plain", "application/zip", "inode/x-empty"]
    )
    func notDangerous(type: String) {
        #expect(!ImageTypes.isDangerous(sniffed: type))
    }
}
