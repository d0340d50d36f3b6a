import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

@testable import FeedsMedia

/// A TIFF keeps the tags its pixels need and loses the rest (GPS, EXIF and its maker note, XMP,
/// maker and model), taken out in place: the file keeps its size, its pixels and its orientation.
@Suite struct TIFFMetadataTests {
    let samples: SampleDirectory
    init() throws { samples = try SampleDirectory() }

    static let pixels = TIFFWriter.pixels
    static let gpsLatitude = TIFFWriter.gpsLatitude
    static func cameraTIFF() -> [UInt8] { TIFFWriter.camera() }

    func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        bytes.count >= needle.count
            && (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<($0 + needle.count)]) == needle }
    }

    @Test func aCameraTIFFKeepsItsPixelsAndOrientationAndNothingElse() throws {
        let tiff = Self.cameraTIFF()
        let original = try samples.write(tiff, named: "camera.tif")
        let before = try #require(try ImageProbe.dimensions(ofFileAt: original), "libvips reads the sample")
        #expect(before.width == 2 && before.height == 4, "shown turned: \(before)")

        let pieces = try #require(try ImageMetadata.strip(Data(tiff), mimeType: "image/tiff"))
        guard case .made(let stripped) = pieces.first, pieces.count == 1 else {
            Issue.record("one made piece: \(pieces)")
            return
        }
        #expect(stripped.count == tiff.count, "nothing moves")
        for secret in ["PhoneCo", "SN123", "xmpmeta", "maker serial", "52.1"] {
            #expect(!contains(stripped, Array(secret.utf8)), "\(secret) survived")
        }
        #expect(!contains(stripped, Self.gpsLatitude), "the latitude survived")
        #expect(Array(stripped.suffix(Self.pixels.count)) == Self.pixels, "the pixels are untouched")
        // IFD0 lists only what drawing needs, orientation included.
        let count = Int(stripped[8]) << 8 | Int(stripped[9])
        let tags = (0..<count).map { Int(stripped[10 + $0 * 12]) << 8 | Int(stripped[11 + $0 * 12]) }
        #expect(tags == [256, 257, 258, 259, 262, 273, 274, 277, 278, 279, 284])

        let written = try samples.write(stripped, named: "stripped.tif")
        let after = try #require(try ImageProbe.dimensions(ofFileAt: written))
        #expect(after.width == before.width && after.height == before.height)
        #expect(try Inspection(written).mean == Inspection(original).mean, "the same pixels")
        #expect(try ImageMetadata.strip(Data(stripped), mimeType: "image/tiff") == nil, "stripping twice changes nothing")
    }

    @Test func brokenFilesAreRefusedOrStrippedNeverOverread() throws {
        let tiff = Self.cameraTIFF()
        for length in 0...tiff.count {
            let cut = Array(tiff.prefix(length))
            guard let pieces = try? TIFFMetadata.strip(Data(cut)), case .made(let stripped) = pieces.first else { continue }
            #expect(stripped.count == cut.count)
        }
        for index in 0..<min(tiff.count, 300) {
            for value: UInt8 in [0xFF, 0x00] {
                var mutated = tiff
                mutated[index] = value
                guard let pieces = try? TIFFMetadata.strip(Data(mutated)), case .made(let stripped) = pieces.first else {
                    continue
                }
                #expect(stripped.count == mutated.count)
            }
        }
        #expect(throws: FeedsError.self) { try TIFFMetadata.strip(Data("not a tiff".utf8)) }
    }
}
