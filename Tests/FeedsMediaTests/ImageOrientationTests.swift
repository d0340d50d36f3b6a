import CVips
import FeedsCore
import Foundation
import Testing

@testable import FeedsMedia

/// A phone writes a photo taken on its side with its pixels as the sensor read them and an EXIF
/// orientation saying how to turn them. Sizes and every resize go by the image as shown, for all
/// eight orientations. The sample is stored 40×20, white on top: shown, the white side is where
/// the orientation puts the stored top row.
@Suite struct ImageOrientationTests {
    enum Side { case top, bottom, left, right }

    /// Where each orientation shows the stored top row (EXIF 2.32, tag 0x0112).
    static let whiteSide: [Int32: Side] = [
        1: .top, 2: .top, 3: .bottom, 4: .bottom, 5: .left, 6: .right, 7: .right, 8: .left,
    ]

    let samples: SampleDirectory
    init() throws { samples = try SampleDirectory() }

    func oriented(_ orientation: Int32) throws -> String {
        try Vips.start()
        let path = samples.path("oriented-\(orientation).jpg")
        guard feeds_vips_save_oriented(path, 40, 20, orientation) == 0 else { throw SampleError.notWritten(path) }
        return path
    }

    /// The mean of one half of an image.
    func mean(of side: Side, _ path: String, width: Int, height: Int) throws -> Double {
        let (w, h) = (Int32(width), Int32(height))
        let area: (Int32, Int32, Int32, Int32) =
            switch side {
            case .top: (0, 0, w, h / 2)
            case .bottom: (0, h - h / 2, w, h / 2)
            case .left: (0, 0, w / 2, h)
            case .right: (w - w / 2, 0, w / 2, h)
            }
        var mean = 0.0
        guard feeds_vips_area_mean(path, area.0, area.1, area.2, area.3, &mean) == 0 else { throw SampleError.notWritten(path) }
        return mean
    }

    @Test(arguments: 1...8)
    func sizesAndResizesAreOfTheImageAsShown(_ orientation: Int32) throws {
        let source = try oriented(orientation)
        let sideways = orientation >= 5
        let size = try #require(try ImageProbe.dimensions(ofFileAt: source))
        #expect(size.width == (sideways ? 20 : 40) && size.height == (sideways ? 40 : 20))

        let destination = samples.path("thumb-\(orientation).jpg")
        let result = try ImageResizer.resize(
            source: source, mimeType: "image/jpeg", request: .init(width: 100, height: 100, mode: .clip), to: destination)
        let (width, height) = sideways ? (50, 100) : (100, 50)
        #expect(result.size.width == width && result.size.height == height)
        let written = try Inspection(destination)
        #expect(written.width == width && written.height == height)
        #expect(!written.hasEXIF, "the thumbnail is upright and carries no EXIF")

        let white = try #require(Self.whiteSide[orientation])
        let opposite: Side = [.top: .bottom, .bottom: .top, .left: .right, .right: .left][white]!
        #expect(try mean(of: white, destination, width: width, height: height) > 230, "orientation \(orientation)")
        #expect(try mean(of: opposite, destination, width: width, height: height) < 25, "orientation \(orientation)")
    }
}
