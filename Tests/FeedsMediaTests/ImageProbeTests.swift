import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

@testable import FeedsMedia

@Suite("ImageProbe")
struct ImageProbeTests {
    let samples: SampleDirectory

    init() throws {
        samples = try SampleDirectory()
    }

    @Test("a hand-built 640×480 PNG measures 640×480")
    func handBuiltPNG() throws {
        let path = try samples.write(PNGWriter.png(width: 640, height: 480), named: "photo.png")
        let size = try #require(try ImageProbe.dimensions(ofFileAt: path))
        #expect(size.width == 640 && size.height == 480)
    }

    @Test("640×480 images in every format libvips writes here", arguments: ["png", "jpg", "gif", "webp", "heic", "bmp"])
    func libvipsImages(suffix: String) throws {
        let path = try samples.blackImage(named: "photo.\(suffix)", width: 640, height: 480)
        let size = try #require(try ImageProbe.dimensions(ofFileAt: path))
        #expect(size.width == 640 && size.height == 480)
    }

    @Test("an SVG measures what its width and height say")
    func svg() throws {
        let path = try samples.write("<!-- logo -->\n" + Samples.svg(width: 640, height: 480), named: "logo.svg")
        let size = try #require(try ImageProbe.dimensions(ofFileAt: path))
        #expect(size.width == 640 && size.height == 480)
    }

    @Test("only the header is read: a PNG with one row of 30,000 still measures")
    func headerOnly() throws {
        // 30,000 × 30,000 greyscale would be 900 MB decoded; the file holds 30 KB of pixels.
        let path = try samples.write(PNGWriter.claiming(width: 30_000, height: 30_000), named: "huge.png")
        let size = try #require(try ImageProbe.dimensions(ofFileAt: path))
        #expect(size.width == 30_000 && size.height == 30_000)
    }

    @Test(
        "files that are not images measure nil",
        arguments: [("page.png", Samples.html), ("doc.png", Samples.pdf), ("notes.png", Samples.text)]
    )
    func notImages(name: String, contents: String) throws {
        let path = try samples.write(contents, named: name)
        #expect(try ImageProbe.dimensions(ofFileAt: path) == nil)
    }

    @Test("a PNG cut off inside its header measures nil")
    func truncatedHeader() throws {
        let png = PNGWriter.png(width: 640, height: 480)
        let path = try samples.write(Array(png.prefix(20)), named: "cut.png")
        #expect(try MediaSniffer.mimeType(ofFileAt: path) == "image/png")
        #expect(try ImageProbe.dimensions(ofFileAt: path) == nil)
    }

    @Test("a JPEG with garbage after its start marker measures nil")
    func corruptJPEG() throws {
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x5A, count: 200)
        let path = try samples.write(bytes, named: "broken.jpg")
        #expect(try MediaSniffer.mimeType(ofFileAt: path) == "image/jpeg")
        #expect(try ImageProbe.dimensions(ofFileAt: path) == nil)
    }

    @Test("a JPEG cut in half keeps its header or measures nil, and never crashes")
    func truncatedJPEG() throws {
        let path = try samples.blackImage(named: "whole.jpg", width: 640, height: 480)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let cut = try samples.write(Array(bytes.prefix(bytes.count / 2)), named: "half.jpg")
        let size = try ImageProbe.dimensions(ofFileAt: cut)
        #expect(size == nil || (size?.width == 640 && size?.height == 480))
    }

    @Test("a missing file throws an internal FeedsError")
    func missingFile() throws {
        let path = samples.url.appendingPathComponent("absent.png").path
        let error = #expect(throws: FeedsError.self) { try ImageProbe.dimensions(ofFileAt: path) }
        #expect(error?.kind == .internal)
    }
}
