import FeedsCore
import FeedsMedia
import FeedsTestSupport
import Foundation
import Testing

/// No resize can take the server down: whatever the source's shape and whatever is asked, the
/// answer is an image within the caps or a 400, and the server stays up.
@Suite struct ResizeAbuseTests {
    static let maxSide = 4096
    static let maxPixels = 16_800_000

    /// Checks one resize answer: a 400 input error, or an image within the caps.
    func expectBounded(_ reply: TestServer.Reply, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(
            reply.status == 200 || reply.status == 400, "\(context): \(reply.status) \(reply.text.prefix(300))",
            sourceLocation: sourceLocation)
        if reply.status == 400 { expectAPIError(reply, status: 400, code: 4, sourceLocation: sourceLocation) }
        guard reply.status == 200 else { return }
        let path = NSTemporaryDirectory() + "resize-abuse-\(UUID().uuidString)"
        try reply.data.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let size = try #require(
            try ImageProbe.dimensions(ofFileAt: path), "\(context): not an image", sourceLocation: sourceLocation)
        #expect(size.width <= Self.maxSide && size.height <= Self.maxSide, "\(context): \(size)", sourceLocation: sourceLocation)
        #expect(size.width * size.height <= Self.maxPixels, "\(context): \(size)", sourceLocation: sourceLocation)
    }

    func uploadPNG(_ server: TestServer, width: Int, height: Int, sizes: String? = nil) async throws -> TestServer.Reply {
        var form = MultipartForm()
        form.add("file", fileName: "\(width)x\(height).png", Data(PNGWriter.png(width: width, height: height)))
        if let sizes { form.add("upload_sizes", Data(sizes.utf8)) }
        return try await server.upload("/uploads/image", as: "alice", form: form)
    }

    // 1. A 1×600000 and a 600000×1 image, stretched along their long side and cut across it.
    @Test(arguments: Backend.allCases) func extremeAspectRatiosStayWithinTheCaps(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let boxes = [
                "w=4096&h=10&resize=crop", "w=10&h=4096&resize=crop", "w=4096&h=10&resize=fill", "w=10&h=4096&resize=fill",
                "w=4096&h=10&resize=scale", "w=10&h=4096&resize=scale", "w=4096&h=4096",
            ]
            for (width, height, stretch) in [(1, 600_000, "w=4096"), (600_000, 1, "h=4096")] {
                let uploaded = try await uploadPNG(server, width: width, height: height)
                #expect(uploaded.status == 201, "\(uploaded.text)")
                let url = try #require(uploaded.body["file"].string)
                for query in [stretch] + boxes {
                    try expectBounded(try await server.fetch(url + "&" + query), "\(width)×\(height) \(query)")
                }
            }
            #expect(await server.isHealthy())
        }
    }

    // 1. The same through upload_sizes, which are resized at upload.
    @Test(arguments: Backend.allCases) func extremeUploadSizesDoNotTakeTheServerDown(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let reply = try await uploadPNG(server, width: 1, height: 600_000, sizes: #"[{"width":4096}]"#)
            #expect(reply.status == 201, "\(reply.text)")
            #expect(await server.isHealthy())
        }
    }

    // 1. At most ten upload_sizes.
    @Test func elevenUploadSizesAreRefused() async throws {
        try await TestServer.run { server in
            let sizes = "[" + (1...11).map { #"{"width":\#($0 * 10)}"# }.joined(separator: ",") + "]"
            let reply = try await uploadPNG(server, width: 40, height: 30, sizes: sizes)
            expectAPIError(reply, status: 400, code: 4)
            #expect(try await server.number("SELECT count(*) FROM cdn_objects WHERE state <> 'deleted'") == 0)
        }
    }

    // 1. Property: random shapes (some of them extreme) × random boxes and modes.
    @Test func randomShapesAndBoxesNeverBreakTheServer() async throws {
        try await TestServer.run { server in
            var random = SeededRandom(seed: 0x16_16_16)
            for shape in 0..<25 {
                let (width, height): (Int, Int) =
                    switch shape % 5 {
                    case 0: (1, random.int(in: 1000...3000))  // a line, tall
                    case 1: (random.int(in: 1000...3000), random.int(in: 1...3))  // a line, wide
                    default: (random.int(in: 1...3000), random.int(in: 1...3000))
                    }
                let uploaded = try await uploadPNG(server, width: width, height: height)
                #expect(uploaded.status == 201, "\(width)×\(height): \(uploaded.text)")
                guard let url = uploaded.body["file"].string else { continue }
                for _ in 0..<2 {
                    var query: [String] = []
                    switch random.int(in: 0...2) {
                    case 0: query.append("w=\(random.int(in: 1...4096))")
                    case 1: query.append("h=\(random.int(in: 1...4096))")
                    default: query += ["w=\(random.int(in: 1...4096))", "h=\(random.int(in: 1...4096))"]
                    }
                    let mode = ["", "clip", "crop", "fill", "scale"][random.int(in: 0...4)]
                    if !mode.isEmpty { query.append("resize=\(mode)") }
                    if mode == "crop" {
                        query.append("crop=" + ["center", "top", "bottom", "left", "right"][random.int(in: 0...4)])
                    }
                    let joined = query.joined(separator: "&")
                    let context = "shape \(shape), \(width)×\(height) \(joined)"
                    do {
                        try expectBounded(try await server.fetch(url + "&" + joined), context)
                    } catch {
                        Issue.record("\(context): \(error)")  // a timeout, say: the server is still at it
                        return
                    }
                }
            }
            #expect(await server.isHealthy())
        }
    }
}
