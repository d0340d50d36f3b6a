import CVips
import FeedsCore
import Foundation
import Testing

@testable import FeedsMedia

/// A phone photo keeps its pixels, ICC profile and orientation, and loses everything that could
/// say where or by what it was taken: EXIF (with GPS), XMP, IPTC, comments, and whatever follows
/// the end of the image. Checked byte by byte.
@Suite struct JPEGMetadataTests {
    let samples: SampleDirectory
    init() throws { samples = try SampleDirectory() }

    /// A 40×20 JPEG with orientation 6 and a GPS tag (as libvips writes them), with an XMP packet,
    /// IPTC, a comment spliced in after SOI and a second "image" after EOI.
    func phonePhoto() throws -> [UInt8] {
        try Vips.start()
        let path = samples.path("phone.jpg")
        try #require(feeds_vips_save_oriented(path, 40, 20, 6) == 0)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let spliced =
            Self.segment(0xE1, "http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>exif:GPSLatitude 52.1</x:xmpmeta>")
            + Self.segment(0xED, "Photoshop 3.0\08BIM IPTC city=Home")
            + Self.segment(0xFE, "shot at home, 52.1N")
        bytes.insert(contentsOf: spliced, at: 2)
        return bytes + Array("\u{FF}\u{D8}MPF second image: GPS 52.1N".utf8)
    }

    static func segment(_ marker: UInt8, _ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        return [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    func apply(_ pieces: [ImageMetadata.Piece], to original: [UInt8]) -> [UInt8] {
        pieces.flatMap { piece -> [UInt8] in
            switch piece {
            case .original(let range): Array(original[range])
            case .made(let bytes): bytes
            }
        }
    }

    /// The image data: from the first SOS marker to EOI.
    func scans(_ jpeg: [UInt8]) -> ArraySlice<UInt8>? {
        guard let start = (0..<jpeg.count - 1).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA }),
            let end = (start..<jpeg.count - 1).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xD9 })
        else { return nil }
        return jpeg[start...end + 1]
    }

    func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<$0 + needle.count]) == needle }
    }

    @Test func aPhoneToldWhereItWasLeavesNoTraceOfIt() throws {
        let photo = try phonePhoto()
        let pieces = try #require(try JPEGMetadata.strip(Data(photo)))
        let stripped = apply(pieces, to: photo)

        for secret in ["ns.adobe.com/xap", "GPSLatitude", "Photoshop 3.0", "shot at home", "MPF second image", "52.1"] {
            #expect(!contains(stripped, secret), "\(secret) survived")
        }
        // The only APP1 left is the orientation, alone.
        let app1s = (0..<stripped.count - 1).filter { stripped[$0] == 0xFF && stripped[$0 + 1] == 0xE1 }
        #expect(app1s.count == 1)
        let exif = JPEGMetadata.exifSegment(orientation: 6)
        #expect(Array(stripped[app1s[0]..<app1s[0] + exif.count]) == exif)
        #expect(!contains(stripped, "N\0"), "the GPS latitude reference is gone")

        // The same pixels, byte for byte, shown the same way up.
        #expect(scans(stripped) == scans(photo))
        #expect(stripped.suffix(2) == [0xFF, 0xD9])
        let written = try samples.write(stripped, named: "stripped.jpg")
        let size = try #require(try ImageProbe.dimensions(ofFileAt: written))
        #expect(size.width == 20 && size.height == 40)
        let original = try samples.write(photo, named: "original.jpg")
        #expect(try Inspection(written).mean == Inspection(original).mean)
    }

    @Test func aStrippedPhotoHasNothingLeftToStrip() throws {
        let photo = try phonePhoto()
        let once = apply(try #require(try JPEGMetadata.strip(Data(photo))), to: photo)
        #expect(try JPEGMetadata.strip(Data(once)) == nil)
    }

    @Test func anUprightPhotoKeepsNoEXIFAtAll() throws {
        try Vips.start()
        let path = samples.path("upright.jpg")
        try #require(feeds_vips_save_oriented(path, 40, 20, 1) == 0)
        let photo = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let stripped = apply(try #require(try JPEGMetadata.strip(Data(photo))), to: photo)
        #expect(!contains(stripped, "Exif"))
        #expect(scans(stripped) == scans(photo))
    }

    /// Hostile and broken files: a comment longer than the file still goes (a file cut off keeps
    /// what it has, but no metadata); what is not a JPEG is refused; every truncation of a real
    /// photo either strips what it can or is refused, and never reads past the end.
    @Test func brokenFilesAreRefusedOrStrippedNeverOverread() throws {
        var lying = [UInt8]([0xFF, 0xD8]) + Self.segment(0xFE, "secret")
        lying[4] = 0xFF  // a comment claiming 65,000 bytes
        let pieces = try #require(try JPEGMetadata.strip(Data(lying)))
        #expect(apply(pieces, to: lying) == [0xFF, 0xD8])
        #expect(throws: FeedsError.self) { try JPEGMetadata.strip(Data("not a jpeg".utf8)) }

        let photo = try phonePhoto()
        for length in stride(from: 0, through: photo.count, by: 3) {
            let cut = Array(photo.prefix(length))
            guard let pieces = try? JPEGMetadata.strip(Data(cut)) else { continue }
            let stripped = apply(pieces, to: cut)
            #expect(!contains(stripped, "shot at home") && !contains(stripped, "GPSLatitude"), "cut at \(length)")
        }
    }
}
