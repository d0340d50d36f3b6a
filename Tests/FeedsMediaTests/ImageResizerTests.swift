import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

@testable import FeedsMedia

@Suite struct ImageResizerTests {
    let samples: SampleDirectory

    init() throws { samples = try SampleDirectory() }

    func resize(_ source: String, _ type: String, _ request: ResizeRequest, out: String = "out") throws
        -> (type: String, inspection: Inspection)
    {
        let extensions = ["image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif"]
        let destination = samples.path(
            "\(out)-\(UUID().uuidString).\(extensions[ImageResizer.outputType(for: type) ?? ""] ?? "bin")")
        let result = try ImageResizer.resize(source: source, mimeType: type, request: request, to: destination)
        #expect(try MediaSniffer.mimeType(ofFileAt: destination) == result.mimeType)
        let inspection = try Inspection(destination)
        #expect(inspection.width == result.size.width && inspection.height == result.size.height)
        return (result.mimeType, inspection)
    }

    /// Each shape with the size `clip` gives it in a 100×100 box; the other modes give the box.
    static let shapes: [(String, Int, Int, Int, Int)] = [
        ("landscape", 400, 300, 100, 75), ("portrait", 300, 400, 75, 100), ("square", 300, 300, 100, 100),
    ]

    /// Every mode on every shape gives exactly its size, in the source's format.
    @Test(arguments: shapes, ResizeRequest.Mode.allCases)
    func everyModeGivesItsExactSize(_ shape: (String, Int, Int, Int, Int), _ mode: ResizeRequest.Mode) throws {
        let source = try samples.blackImage(named: "\(shape.0).jpg", width: shape.1, height: shape.2)
        let (type, result) = try resize(source, "image/jpeg", ResizeRequest(width: 100, height: 100, mode: mode))
        #expect(type == "image/jpeg")
        let expected = mode == .clip ? (shape.3, shape.4) : (100, 100)
        #expect(result.width == expected.0 && result.height == expected.1)
    }

    /// The top half is white: crop=top keeps white, bottom keeps black; across the other axis, centre.
    @Test func cropGravityKeepsTheNamedPart() throws {
        let tall = try samples.halves(named: "tall.png", width: 200, height: 400)
        #expect(try resize(tall, "image/png", .init(width: 200, height: 100, mode: .crop, gravity: .top)).inspection.mean > 250)
        #expect(try resize(tall, "image/png", .init(width: 200, height: 100, mode: .crop, gravity: .bottom)).inspection.mean < 5)
        let centre = try resize(tall, "image/png", .init(width: 200, height: 100, mode: .crop, gravity: .center)).inspection.mean
        #expect(centre > 100 && centre < 155)
        let wide = try samples.halves(named: "wide.png", width: 400, height: 200, across: true)
        #expect(try resize(wide, "image/png", .init(width: 100, height: 200, mode: .crop, gravity: .left)).inspection.mean > 250)
        #expect(try resize(wide, "image/png", .init(width: 100, height: 200, mode: .crop, gravity: .right)).inspection.mean < 5)
        // A gravity across the cut axis does not move the cut: top on a wide source is the centre.
        let topOfWide = try resize(wide, "image/png", .init(width: 100, height: 200, mode: .crop, gravity: .top)).inspection.mean
        #expect(topOfWide > 100 && topOfWide < 155)
    }

    @Test func fillPadsWhiteWithoutAlphaAndTransparentWithIt() throws {
        let jpeg = try samples.blackImage(named: "black.jpg", width: 400, height: 200)
        let white = try resize(jpeg, "image/jpeg", .init(width: 200, height: 200, mode: .fill)).inspection
        #expect(white.bands == 3)
        #expect(white.mean > 120 && white.mean < 135)  // half black, half white padding
        let png = try samples.blackImage(named: "black.png", width: 400, height: 200)
        let clear = try resize(png, "image/png", .init(width: 200, height: 200, mode: .fill)).inspection
        #expect(clear.bands == 4)  // an alpha band was added; the padding is transparent black
        #expect(clear.mean < 70)
    }

    @Test func formatsFollowTheSource() throws {
        let webp = try samples.blackImage(named: "a.webp", width: 64, height: 64)
        #expect(try resize(webp, "image/webp", .init(width: 32, height: nil)).type == "image/webp")
        let gif = try samples.blackImage(named: "a.gif", width: 64, height: 64)
        #expect(try resize(gif, "image/gif", .init(width: 32, height: nil)).type == "image/gif")
        let png = try samples.blackImage(named: "a.png", width: 64, height: 64)
        #expect(try resize(png, "image/png", .init(width: 32, height: nil)).type == "image/png")
    }

    @Test func anAnimatedGIFGivesItsFirstFrame() throws {
        let frames = try samples.animatedGIF(named: "anim.gif", width: 40, height: 30, frames: 3)
        let (type, result) = try resize(frames, "image/gif", .init(width: 20, height: nil))
        #expect(type == "image/gif")
        #expect(result.width == 20 && result.height == 15)
        #expect(result.mean < 100)  // the black first frame (with its opaque alpha, 63.75), not the grey ones (159.75)
    }

    @Test func metadataIsStripped() throws {
        let path = try samples.jpegWithEXIF(named: "exif.jpg", width: 300, height: 200)
        #expect(try Inspection(path).hasEXIF)
        #expect(try resize(path, "image/jpeg", .init(width: 150, height: nil)).inspection.hasEXIF == false)
    }

    @Test func thePixelCapIsExact() throws {
        // 4200 × 4000 is exactly 16,800,000 pixels: resized.
        let atLimit = try samples.write(PNGWriter.png(width: 4200, height: 4000), named: "limit.png")
        #expect(try resize(atLimit, "image/png", .init(width: 100, height: nil)).inspection.width == 100)
        // 230137 × 73 is 16,800,001: refused from the header alone (the file holds one row).
        let over = try samples.write(PNGWriter.claiming(width: 230_137, height: 73), named: "over.png")
        #expect {
            try ImageResizer.resize(
                source: over, mimeType: "image/png", request: .init(width: 100, height: nil), to: samples.path("o.png"))
        } throws: { error in
            (error as? FeedsError)?.kind == .input && (error as? FeedsError)?.message.contains("16800000") == true
        }
    }

    @Test func svgIsNeverRasterised() throws {
        let svg = try samples.write(Samples.svg(), named: "a.svg")
        #expect(ImageResizer.outputType(for: "image/svg+xml") == nil)
        #expect {
            try ImageResizer.resize(
                source: svg, mimeType: "image/svg+xml", request: .init(width: 10, height: nil), to: samples.path("s.png"))
        } throws: { ($0 as? FeedsError)?.kind == .input }
    }

    @Test func aTruncatedImageIsABadRequest() throws {
        let whole = PNGWriter.png(width: 300, height: 300)
        let truncated = try samples.write(Array(whole.prefix(whole.count / 2)), named: "cut.png")
        #expect {
            try ImageResizer.resize(
                source: truncated, mimeType: "image/png", request: .init(width: 10, height: nil), to: samples.path("t.png"))
        } throws: { ($0 as? FeedsError)?.kind == .input }
    }
}
