import FeedsCore
import FeedsMedia
import FeedsTestSupport
import Foundation
import Testing

/// A resize for a client whose `Accept` takes WebP comes out as WebP (JPEG and PNG sources, and
/// a video's poster), every resize says `Vary: Accept`, and a client that does not take WebP
/// never gets it, from memory or from disk. GIFs stay GIFs.
@Suite struct ImageFormatTests {
    static let browser = [("Accept", "image/avif,image/webp,image/apng,image/*,*/*;q=0.8")]

    @Test(arguments: Backend.allCases) func aResizeIsWebPForAClientThatTakesIt(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            var form = MultipartForm()
            form.add("file", fileName: "p.png", Data(PNGWriter.png(width: 400, height: 300)))
            let url = try #require(try await server.upload("/uploads/image", as: "alice", form: form).body["file"].string)
            let small = url + "&w=100"
            // Twice each, in turns: the second of each may come from memory (the hot objects).
            for _ in 0..<2 {
                let webp = try await server.fetch(small, headers: Self.browser)
                #expect(webp.status == 200 && webp.headers["Content-Type"].first == "image/webp", "\(webp.headers)")
                #expect(webp.headers["Vary"].first == "Accept")
                #expect(webp.data.starts(with: Array("RIFF".utf8)))
                let plain = try await server.fetch(small)
                #expect(plain.headers["Content-Type"].first == "image/png" && plain.headers["Vary"].first == "Accept")
                let refused = try await server.fetch(small, headers: [("Accept", "image/webp;q=0, image/*")])
                #expect(refused.headers["Content-Type"].first == "image/png")
            }
            // The original is as stored, whatever the client takes.
            #expect(try await server.fetch(url, headers: Self.browser).headers["Content-Type"].first == "image/png")
        }
    }

    @Test func aVideoPosterAndAGIF() async throws {
        let video = try await AVSamples.make("clip.mp4")
        try await TestServer.run { server in
            var form = MultipartForm()
            form.add("file", fileName: "clip.mp4", try Data(contentsOf: video))
            let thumb = try #require(try await server.upload("/uploads/file", as: "alice", form: form).body["thumb_url"].string)
            #expect(try await server.fetch(thumb, headers: Self.browser).headers["Content-Type"].first == "image/webp")
            #expect(try await server.fetch(thumb).headers["Content-Type"].first == "image/jpeg")

            let gif = try #require(Data(base64Encoded: "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"))
            var gifForm = MultipartForm()
            gifForm.add("file", fileName: "dot.gif", gif)
            let url = try #require(try await server.upload("/uploads/image", as: "alice", form: gifForm).body["file"].string)
            #expect(try await server.fetch(url + "&w=10", headers: Self.browser).headers["Content-Type"].first == "image/gif")
        }
    }

    @Test func acceptHeadersAreReadAsBrowsersSendThem() {
        #expect(ResizeRequest.acceptsWebP("image/webp"))
        #expect(ResizeRequest.acceptsWebP("text/html, IMAGE/WEBP ; q=0.9"))
        #expect(!ResizeRequest.acceptsWebP("image/webp;q=0"))
        #expect(!ResizeRequest.acceptsWebP("*/*"))
        #expect(!ResizeRequest.acceptsWebP(nil))
        #expect(!ResizeRequest.acceptsWebP("image/webpx"))
    }
}
