import CVips
import FeedsCore
import Foundation
import Testing

@testable import FeedsMedia

/// An iPhone's HEIC loses its EXIF (GPS and all) and XMP without a byte of anything else moving:
/// the items are blanked where they lie, and the image decodes the same.
@Suite struct HEIFMetadataTests {
    let samples: SampleDirectory
    init() throws { samples = try SampleDirectory() }

    func apply(_ pieces: [ImageMetadata.Piece], to original: [UInt8]) -> [UInt8] {
        pieces.flatMap { piece -> [UInt8] in
            switch piece {
            case .original(let range): Array(original[range])
            case .made(let bytes): bytes
            }
        }
    }

    @Test func aPhoneHEICLosesItsLocationAndKeepsItsPixels() throws {
        try Vips.start()
        let path = samples.path("phone.heic")
        try #require(feeds_vips_save_oriented(path, 40, 20, 6) == 0)
        #expect(feeds_vips_has_field(path, "exif-ifd3-GPSLatitudeRef") == 1, "the sample carries a GPS tag")
        let photo = Array(try Data(contentsOf: URL(fileURLWithPath: path)))

        let pieces = try #require(try ImageMetadata.strip(Data(photo), mimeType: "image/heic"))
        let stripped = apply(pieces, to: photo)
        #expect(stripped.count == photo.count, "nothing moves")
        let written = try samples.write(stripped, named: "stripped.heic")
        #expect(feeds_vips_has_field(written, "exif-ifd3-GPSLatitudeRef") == 0, "no GPS tag left")
        let (before, after) = (
            try #require(try ImageProbe.dimensions(ofFileAt: path)), try #require(try ImageProbe.dimensions(ofFileAt: written))
        )
        #expect(before.width == after.width && before.height == after.height)
        #expect(try Inspection(written).mean == Inspection(path).mean, "the same pixels")
        #expect(try ImageMetadata.strip(Data(stripped), mimeType: "image/heic") == nil, "stripping twice changes nothing")
    }

    /// A HEIF's boxes by hand: an Exif item in the file and an XMP item in `idat`, found through
    /// `iinf` and `iloc` (version 1, both construction methods).
    static func structure() -> (file: [UInt8], exif: Range<Int>, xmp: Range<Int>) {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            UInt32(payload.count + 8).bigEndianBytes + Array(type.utf8) + payload
        }
        func infe(_ id: UInt16, _ type: String, _ extra: [UInt8] = []) -> [UInt8] {
            box("infe", [2, 0, 0, 0] + [UInt8(id >> 8), UInt8(id & 0xFF)] + [0, 0] + Array(type.utf8) + [0] + extra)
        }
        let exif: [UInt8] = [0, 0, 0, 6] + Array("Exif\0\0MM\0*GPS 52.1N home".utf8)
        let xmp = Array("<x:xmpmeta>exif:GPSLatitude 52.1</x:xmpmeta>".utf8)
        let pixels = [UInt8](repeating: 0xAB, count: 64)
        let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        let iinf = box(
            "iinf", [0, 0, 0, 0, 0, 3] + infe(1, "hvc1") + infe(2, "Exif") + infe(3, "mime", Array("application/rdf+xml\0".utf8)))
        let idat = box("idat", xmp)
        // iloc v1: offset, length 4 bytes, base 0, index 0; three items of one extent each.
        func item(_ id: UInt16, method: UInt16, offset: Int, length: Int) -> [UInt8] {
            [UInt8(id >> 8), UInt8(id & 0xFF), 0, UInt8(method), 0, 0, 0, 1] + UInt32(offset).bigEndianBytes
                + UInt32(length).bigEndianBytes
        }
        func layout(exifAt: Int, pixelsAt: Int) -> [UInt8] {
            let iloc = box(
                "iloc",
                [1, 0, 0, 0, 0x44, 0x00, 0, 3] + item(1, method: 0, offset: pixelsAt, length: pixels.count)
                    + item(2, method: 0, offset: exifAt, length: exif.count) + item(3, method: 1, offset: 0, length: xmp.count))
            return ftyp + box("meta", [0, 0, 0, 0] + iinf + iloc + idat)
        }
        let head = layout(exifAt: 0, pixelsAt: 0).count
        let mdat = box("mdat", pixels + exif)
        let file = layout(exifAt: head + 8 + pixels.count, pixelsAt: head + 8) + mdat
        let exifStart = head + 8 + pixels.count
        let xmpStart = ftyp.count + 8 + 4 + iinf.count + (8 + 8 + 3 * 16) + 8
        return (file, exifStart..<(exifStart + exif.count), xmpStart..<(xmpStart + xmp.count))
    }

    @Test func itemsAreBlankedWhereTheyLie() throws {
        let (file, exif, xmp) = Self.structure()
        #expect(Array(file[xmp]) == Array("<x:xmpmeta>exif:GPSLatitude 52.1</x:xmpmeta>".utf8), "the layout is as meant")
        let stripped = apply(try #require(try HEIFMetadata.strip(Data(file))), to: file)
        #expect(stripped.count == file.count)
        #expect(Array(stripped[exif]) == HEIFMetadata.emptyEXIF(count: exif.count))
        #expect(stripped[xmp].allSatisfy { $0 == 0x20 })
        for index in file.indices where !exif.contains(index) && !xmp.contains(index) {
            guard stripped[index] == file[index] else {
                Issue.record("byte \(index) moved")
                return
            }
        }
        #expect(try HEIFMetadata.strip(Data(stripped)) == nil)
    }

    /// Every file cut short, and every byte of its boxes turned to 0xFF, is stripped or refused,
    /// never read past its end.
    @Test func brokenFilesAreRefusedOrStrippedNeverOverread() throws {
        let (file, _, _) = Self.structure()
        for length in 0...file.count {
            let cut = Array(file.prefix(length))
            guard let pieces = try? HEIFMetadata.strip(Data(cut)) else { continue }
            #expect(apply(pieces, to: cut).count == cut.count)
        }
        for index in 0..<min(file.count, 400) {
            var mutated = file
            mutated[index] = 0xFF
            guard let pieces = try? HEIFMetadata.strip(Data(mutated)) else { continue }
            #expect(apply(pieces, to: mutated).count == mutated.count)
        }
        #expect(throws: FeedsError.self) { try HEIFMetadata.strip(Data("not a heif at all".utf8)) }
    }
}
