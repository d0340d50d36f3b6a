import CMagic
import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

@testable import FeedsMedia

@Suite("MediaSniffer")
struct MediaSnifferTests {
    let samples: SampleDirectory

    init() throws {
        samples = try SampleDirectory()
    }

    @Test("a hand-built PNG sniffs as image/png")
    func handBuiltPNG() throws {
        let path = try samples.write(PNGWriter.png(width: 3, height: 2), named: "tiny.png")
        #expect(try MediaSniffer.mimeType(ofFileAt: path) == "image/png")
    }

    @Test(
        "images libvips writes sniff as their type, whatever the file is called",
        arguments: [
            ("png", "image/png"), ("jpg", "image/jpeg"), ("gif", "image/gif"), ("webp", "image/webp"),
            ("heic", "image/heic"), ("bmp", "image/bmp"),
        ]
    )
    func libvipsImages(suffix: String, type: String) throws {
        let written = try samples.blackImage(named: "sample.\(suffix)", width: 64, height: 48)
        let renamed = samples.url.appendingPathComponent("upload.bin").path
        try FileManager.default.moveItem(atPath: written, toPath: renamed)
        #expect(try MediaSniffer.mimeType(ofFileAt: renamed) == type)
    }

    @Test("HTML named .png sniffs as text/html, which is dangerous")
    func htmlNamedPNG() throws {
        let path = try samples.write(Samples.html, named: "cat.png")
        let type = try MediaSniffer.mimeType(ofFileAt: path)
        #expect(type == "text/html")
        #expect(ImageTypes.isDangerous(sniffed: type))
        #expect(!ImageTypes.allowed.contains(type))
    }

    @Test("XHTML sniffs as XML, which is dangerous")
    func xhtml() throws {
        let path = try samples.write(Samples.xhtml, named: "page.png")
        let type = try MediaSniffer.mimeType(ofFileAt: path)
        #expect(type == "text/xml")
        #expect(ImageTypes.isDangerous(sniffed: type))
    }

    @Test("a PDF header sniffs as application/pdf")
    func pdf() throws {
        let path = try samples.write(Samples.pdf, named: "doc.jpg")
        let type = try MediaSniffer.mimeType(ofFileAt: path)
        #expect(type == "application/pdf")
        #expect(!ImageTypes.isDangerous(sniffed: type))
    }

    @Test("plain text sniffs as text/plain, neither image nor dangerous")
    func plainText() throws {
        let path = try samples.write(Samples.text, named: "notes.gif")
        let type = try MediaSniffer.mimeType(ofFileAt: path)
        #expect(type == "text/plain")
        #expect(!ImageTypes.allowed.contains(type))
        #expect(!ImageTypes.isDangerous(sniffed: type))
    }

    /// libmagic 5.44 reads the first 7 MB of every file into a buffer allocated afresh, which cost
    /// an upload of 100 MB 9 ms of page faults before its reply.
    @Test("every handle of the pool reads a file's first megabyte, not 7 MB")
    func handlesReadTheFirstMegabyte() throws {
        let pool = MagicPool(maxIdle: 1)
        for _ in 0..<2 {  // a new handle, then the same one again from the pool
            let bytesMax = try pool.withCookie { cookie in
                var value = 0
                #expect(magic_getparam(cookie.pointer, MAGIC_PARAM_BYTES_MAX, &value) == 0)
                return value
            }
            #expect(bytesMax == 1 << 20)
        }
    }

    @Test(
        "SVG sniffs as image/svg+xml, including the prologs libmagic takes for text",
        arguments: [
            Samples.svg(),
            #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + Samples.svg(),
            "<!-- drawn by hand -->\n" + Samples.svg(),
            "\n\n   " + Samples.svg(),
            "\u{FEFF}" + Samples.svg(),
            #"<?xml version="1.0"?><!DOCTYPE svg [ <!ENTITY a "b>c"> ]><!-- x -->"# + Samples.svg(),
        ]
    )
    func svg(document: String) throws {
        let path = try samples.write(document, named: "drawing.svg")
        #expect(try MediaSniffer.mimeType(ofFileAt: path) == "image/svg+xml")
    }

    @Test("an HTML page holding an <svg> stays HTML")
    func htmlWithInlineSVG() throws {
        let path = try samples.write("<html><body>\(Samples.svg())</body></html>", named: "icon.svg")
        #expect(try MediaSniffer.mimeType(ofFileAt: path) == "text/html")
    }

    @Test("an empty file sniffs as inode/x-empty")
    func empty() throws {
        let path = try samples.write([UInt8](), named: "empty.png")
        #expect(try MediaSniffer.mimeType(ofFileAt: path) == "inode/x-empty")
    }

    @Test("a missing file throws an internal FeedsError")
    func missingFile() throws {
        let path = samples.url.appendingPathComponent("absent.png").path
        let error = #expect(throws: FeedsError.self) { try MediaSniffer.mimeType(ofFileAt: path) }
        #expect(error?.kind == .internal)
    }

    @Test("concurrent calls each get the right answer")
    func concurrent() async throws {
        let files = [
            (try samples.write(PNGWriter.png(width: 4, height: 4), named: "a.png"), "image/png"),
            (try samples.write(Samples.html, named: "b.png"), "text/html"),
            (try samples.write(Samples.pdf, named: "c.png"), "application/pdf"),
            (try samples.write("<!-- c -->" + Samples.svg(), named: "d.png"), "image/svg+xml"),
        ]
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for round in 0..<200 {
                let (path, expected) = files[round % files.count]
                group.addTask { try MediaSniffer.mimeType(ofFileAt: path) == expected ? 0 : 1 }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
