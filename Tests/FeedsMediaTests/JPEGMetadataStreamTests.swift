import FeedsCore
import Foundation
import Testing

@testable import FeedsMedia

/// A JPEG stripped as it streams in comes out the same however its bytes are cut into chunks,
/// carries no more than one segment between chunks, and keeps the orientation where readers find it.
@Suite struct JPEGMetadataStreamTests {
    let photos: JPEGMetadataTests
    init() throws { photos = try JPEGMetadataTests() }

    /// The stripped bytes of `jpeg` fed in `sizes` (repeated), or the error.
    static func stream(_ jpeg: [UInt8], in sizes: [Int]) -> Result<[UInt8], FeedsError> {
        var stream = JPEGMetadataStream()
        var result: [UInt8] = []
        func add(_ outputs: [JPEGMetadataStream.Output], _ chunk: ArraySlice<UInt8>) {
            for output in outputs {
                switch output {
                case .chunk(let range):
                    result += chunk[(chunk.startIndex + range.lowerBound)..<(chunk.startIndex + range.upperBound)]
                case .made(let bytes): result += bytes
                }
            }
        }
        do {
            var at = 0
            var turn = 0
            while at < jpeg.count {
                let end = min(jpeg.count, at + sizes[turn % sizes.count])
                let chunk = jpeg[at..<end]
                add(try chunk.withUnsafeBytes { try stream.feed($0) }, chunk)
                (at, turn) = (end, turn + 1)
            }
            add(try stream.finish(), [])
            return .success(result)
        } catch let error as FeedsError {
            return .failure(error)
        } catch {
            return .failure(FeedsError(.internal, "\(error)"))
        }
    }

    /// A JPEG's structure with every kind of part the walker tells apart: JFIF, an EXIF with an
    /// orientation and a GPS note, a comment, tables, two scans with stuffed bytes, restart
    /// markers and fill between them, and a second image after the end.
    static func structure() -> [UInt8] {
        let exif = JPEGMetadata.exif + EXIFOrientation.tiff(6) + Array("GPS 52.1N".utf8)
        return [0xFF, 0xD8] + JPEGMetadataTests.segment(0xE0, "JFIF\0\u{1}\u{1}")
            + [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif
            + JPEGMetadataTests.segment(0xFE, "shot at home") + JPEGMetadataTests.segment(0xDB, "tables")
            + JPEGMetadataTests.segment(0xC2, "frame") + JPEGMetadataTests.segment(0xDA, "scan 1")
            + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xFF, 0x00, 0x78]
            + [0xFF, 0xFF, 0xFF] + JPEGMetadataTests.segment(0xC4, "more tables") + JPEGMetadataTests.segment(0xDA, "scan 2")
            + [0x9A, 0xFF, 0x00, 0xFF, 0xD7] + [0xFF, 0xD9] + Array("MPF second image: GPS 52.1N".utf8)
    }

    @Test func anyCuttingIntoChunksGivesTheSameFile() throws {
        let photo = try photos.phonePhoto()
        for jpeg in [Self.structure(), photo] {
            let whole = Self.stream(jpeg, in: [jpeg.count])
            let stripped = try whole.get()
            #expect(!photos.contains(stripped, "GPS 52.1N") && !photos.contains(stripped, "shot at home"))
            #expect(stripped.count < jpeg.count)
            for sizes in [[1], [2], [3], [1, 5, 2], [7, 1], [64, 1, 1, 300], [4096]] {
                #expect(Self.stream(jpeg, in: sizes) == whole, "chunks of \(sizes)")
            }
        }
        // Every file cut short: the same, or refused the same, whatever the chunks.
        let structure = Self.structure()
        for length in 0...structure.count {
            let cut = Array(structure.prefix(length))
            let whole = Self.stream(cut, in: [max(cut.count, 1)])
            #expect(Self.stream(cut, in: [1]) == whole, "cut at \(length)")
            #expect(Self.stream(cut, in: [3, 2]) == whole, "cut at \(length)")
            if case .success(let stripped) = whole {
                #expect(!photos.contains(stripped, "shot at home") && !photos.contains(stripped, "GPS"), "cut at \(length)")
            }
        }
    }

    @Test func theStructureIsWalkedRight() throws {
        let stripped = try Self.stream(Self.structure(), in: [5]).get()
        let expected =
            [0xFF, 0xD8] + JPEGMetadataTests.segment(0xE0, "JFIF\0\u{1}\u{1}") + JPEGMetadata.exifSegment(orientation: 6)
            + JPEGMetadataTests.segment(0xDB, "tables") + JPEGMetadataTests.segment(0xC2, "frame")
            + JPEGMetadataTests.segment(0xDA, "scan 1") + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xFF, 0x00, 0x78]
            + [0xFF, 0xFF, 0xFF] + JPEGMetadataTests.segment(0xC4, "more tables") + JPEGMetadataTests.segment(0xDA, "scan 2")
            + [0x9A, 0xFF, 0x00, 0xFF, 0xD7, 0xFF, 0xD9]
        #expect(stripped == expected)
    }

    /// Fill bytes and long segments that are left out are not held: at most one segment is carried.
    @Test func hostileFilesCarryAtMostOneSegment() throws {
        var fill = JPEGMetadataStream()
        _ = try [UInt8]([0xFF, 0xD8]).withUnsafeBytes { try fill.feed($0) }
        let run = [UInt8](repeating: 0xFF, count: 65_536)
        for _ in 0..<64 {
            #expect(try run.withUnsafeBytes { try fill.feed($0) }.isEmpty)
            #expect(fill.carriedCount <= 1)
        }
        #expect(throws: FeedsError.self) { try fill.finish() }

        var comments = JPEGMetadataStream()
        _ = try [UInt8]([0xFF, 0xD8]).withUnsafeBytes { try comments.feed($0) }
        let comment = [0xFF, 0xFE, 0xFF, 0xFF] + [UInt8](repeating: 0x41, count: 65_533)
        let many = Array([[UInt8]](repeating: comment, count: 40).joined())
        var at = 0
        while at < many.count {
            let chunk = many[at..<min(many.count, at + 1000)]
            #expect(try chunk.withUnsafeBytes { try comments.feed($0) }.isEmpty)
            #expect(comments.carriedCount <= 65_537)
            at += 1000
        }
        #expect(try comments.finish().isEmpty && comments.stripped)
    }

    /// Passing other files through: an MP3 (0xFF 0xFB) or a one-byte file comes out as it went in.
    @Test func otherFilesPassThroughWhenAsked() throws {
        for file in [[0xFF, 0xFB, 0x90, 0x00, 0x01], [0xFF], [], Array("GIF89a".utf8)] as [[UInt8]] {
            for size in [1, 2, 10] {
                var stream = JPEGMetadataStream(passingOtherFilesThrough: true)
                var result: [UInt8] = []
                var at = 0
                while at < file.count {
                    let chunk = Array(file[at..<min(file.count, at + size)])
                    for output in try chunk.withUnsafeBytes({ try stream.feed($0) }) {
                        switch output {
                        case .chunk(let range): result += chunk[range]
                        case .made(let bytes): result += bytes
                        }
                    }
                    at += size
                }
                for case .made(let bytes) in try stream.finish() { result += bytes }
                #expect(result == file && !stream.isJPEG && !stream.stripped)
            }
        }
        #expect(throws: FeedsError.self) { try Self.stream([0xFF, 0xFB, 0x90], in: [1]).get() }
    }

    /// An EXIF after other segments: its orientation takes its place, and the photo still shows upright.
    @Test func anOrientationAfterOtherSegmentsStaysWhereItWas() throws {
        var photo = try photos.phonePhoto()
        // Move the first quantisation table before everything else after SOI.
        let table = try #require((2..<photo.count - 1).first { photo[$0] == 0xFF && photo[$0 + 1] == 0xDB })
        let length = Int(photo[table + 2]) << 8 | Int(photo[table + 3])
        let segment = Array(photo[table..<(table + 2 + length)])
        photo.removeSubrange(table..<(table + 2 + length))
        photo.insert(contentsOf: segment, at: 2)

        let stripped = try Self.stream(photo, in: [4096]).get()
        #expect(Array(stripped[2..<(2 + segment.count)]) == segment)
        let exif = JPEGMetadata.exifSegment(orientation: 6)
        #expect(stripped.indices.contains { stripped[$0...].starts(with: exif) })
        let written = try photos.samples.write(stripped, named: "moved.jpg")
        let size = try #require(try ImageProbe.dimensions(ofFileAt: written))
        #expect(size.width == 20 && size.height == 40)
        #expect(try JPEGMetadata.strip(Data(stripped)) == nil, "nothing left to strip")
    }
}
