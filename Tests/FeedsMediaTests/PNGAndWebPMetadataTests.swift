import CVips
import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

@testable import FeedsMedia

/// PNG and WebP lose their EXIF (but the orientation), text, XMP and trailing data; everything
/// else, the image data first, stays byte for byte, and the result still decodes to the same image.
@Suite struct PNGAndWebPMetadataTests {
    let samples: SampleDirectory
    init() throws { samples = try SampleDirectory() }

    func contains(_ bytes: Data, _ text: String) -> Bool { bytes.range(of: Data(text.utf8)) != nil }

    /// The offsets of every chunk of `type` in a PNG.
    func pngChunks(_ png: Data, _ type: String) -> [Int] {
        var found: [Int] = []
        var at = 8
        while at + 12 <= png.count {
            let length = png.bigEndian32(at)
            if String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self) == type { found.append(at) }
            at += 12 + length
        }
        return found
    }

    @Test func crc32IsTheStandardOne() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test func aPNGKeepsItsPixelsAndOrientationAndNothingElse() throws {
        let plain = Data(PNGWriter.png(width: 30, height: 20))
        // After IHDR (8 + 25 bytes): an eXIf with the orientation and a GPS note, text and a time.
        let exif = EXIFOrientation.tiff(6) + Array("GPS 52.1N".utf8)
        let metadata =
            PNGMetadata.chunk("eXIf", exif) + PNGMetadata.chunk("tEXt", Array("Comment\0shot at home".utf8))
            + PNGMetadata.chunk("iTXt", Array("XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta/>".utf8))
            + PNGMetadata.chunk("tIME", [0x07, 0xEA, 11, 27, 10, 0, 0])
        var photo = plain
        photo.insert(contentsOf: metadata, at: 33)
        photo.append(Data("trailing GPS 52.1N".utf8))

        let stripped = ImageMetadata.apply(try #require(try ImageMetadata.strip(photo, mimeType: "image/png")), to: photo)
        for secret in ["GPS", "shot at home", "xmpmeta", "tIME", "trailing"] { #expect(!contains(stripped, secret), "\(secret)") }
        let kept = try #require(pngChunks(stripped, "eXIf").first)
        #expect(Array(stripped[(kept + 8)..<(kept + 8 + 26)]) == EXIFOrientation.tiff(6))
        #expect(kept < (pngChunks(stripped, "IDAT").first ?? 0), "eXIf comes before the image data")
        #expect(pngChunks(stripped, "IDAT").map { stripped[$0...].prefix(40) } == pngChunks(plain, "IDAT").map { plain[$0...].prefix(40) })
        #expect(stripped.suffix(12) == plain.suffix(12), "it ends with IEND")
        #expect(try ImageMetadata.strip(stripped, mimeType: "image/png") == nil, "stripping twice changes nothing")

        let written = try samples.write(Array(stripped), named: "stripped.png")
        let original = try samples.write(Array(plain), named: "plain.png")
        #expect(try Inspection(written).mean == Inspection(original).mean)
    }

    @Test func aWebPKeepsItsPixelsAndOrientationAndNothingElse() throws {
        try Vips.start()
        let path = samples.path("phone.webp")
        try #require(feeds_vips_save_oriented(path, 40, 20, 6) == 0)
        var photo = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(contains(photo, "EXIF"), "libvips wrote the EXIF")
        photo.append(Data("trailing GPS 52.1N".utf8))

        let stripped = ImageMetadata.apply(try #require(try ImageMetadata.strip(photo, mimeType: "image/webp")), to: photo)
        #expect(!contains(stripped, "trailing"))
        #expect(stripped.littleEndian32(4) == stripped.count - 8, "the RIFF size is of what is left")
        // The only EXIF left is the orientation, and VP8X says it is there.
        let exif = try #require(stripped.range(of: Data("EXIF".utf8)))
        #expect(Array(stripped[(exif.upperBound + 4)..<(exif.upperBound + 4 + 26)]) == EXIFOrientation.tiff(6))
        #expect(stripped.littleEndian32(exif.upperBound) == 26)
        let vp8x = try #require(stripped.range(of: Data("VP8X".utf8)))
        #expect(stripped[vp8x.upperBound + 4] & 0x08 != 0 && stripped[vp8x.upperBound + 4] & 0x04 == 0)
        #expect(try ImageMetadata.strip(stripped, mimeType: "image/webp") == nil, "stripping twice changes nothing")

        let written = try samples.write(Array(stripped), named: "stripped.webp")
        #expect(try Inspection(written).mean == Inspection(path).mean)
        let size = try #require(try ImageProbe.dimensions(ofFileAt: written))
        #expect(size.width == 20 && size.height == 40, "still shown turned")
    }

    @Test func brokenFilesAreRefusedOrStrippedNeverOverread() throws {
        var png = Data(PNGWriter.png(width: 8, height: 8))
        png.insert(contentsOf: PNGMetadata.chunk("tEXt", Array("Comment\0secret".utf8)), at: 33)
        try Vips.start()
        let path = samples.path("cut.webp")
        try #require(feeds_vips_save_oriented(path, 16, 8, 6) == 0)
        let webp = try Data(contentsOf: URL(fileURLWithPath: path))
        let jpegPath = samples.path("mutated.jpg")
        try #require(feeds_vips_save_oriented(jpegPath, 16, 8, 6) == 0)
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: jpegPath))
        for (file, type) in [(png, "image/png"), (webp, "image/webp")] {
            for length in 0...file.count {
                let cut = file.prefix(length)
                guard let pieces = try? ImageMetadata.strip(cut, mimeType: type) else { continue }
                #expect(!contains(ImageMetadata.apply(pieces, to: Data(cut)), "secret"), "\(type) cut at \(length)")
            }
        }
        // Hostile bytes anywhere (lengths, sizes, types, markers): refused or stripped, never a
        // read past the end or a trap. The pieces of a result always lie within the file.
        var random = SeededRandom(seed: 34)
        for (file, type) in [(png, "image/png"), (webp, "image/webp"), (jpeg, "image/jpeg")] {
            for _ in 0..<400 {
                var mutated = file
                for _ in 0...Int.random(in: 0...3, using: &random) {
                    mutated[Int.random(in: 0..<mutated.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                guard let pieces = try? ImageMetadata.strip(mutated, mimeType: type) else { continue }
                for case .original(let range) in pieces { #expect(range.upperBound <= mutated.count, "\(type)") }
            }
        }
    }
}

extension ImageMetadata {
    /// The pieces applied to `original`: the stripped file's bytes.
    static func apply(_ pieces: [Piece], to original: Data) -> Data {
        var out = Data()
        for piece in pieces {
            switch piece {
            case .original(let range): out.append(original[range])
            case .made(let bytes): out.append(contentsOf: bytes)
            }
        }
        return out
    }
}
