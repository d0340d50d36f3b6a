import FeedsTestSupport
import Foundation
import PostgresNIO
import Testing

/// What Stream's SDKs send that the reference marks otherwise: attachments without `custom`, and
/// the Node SDK's `undefined` for multipart options left out. Liberal in what is accepted, the
/// same in what is stored and returned.
@Suite struct SDKLenienceTests {
    @Test func attachmentsWithoutCustomAreStoredWithAnEmptyOne() async throws {
        try await TestServer.run { server in
            let url = try await server.uploadFile(as: "alice")
            let link = #"{"type":"link","title_link":"https://example.com"}"#
            let file = #"{"type":"file","asset_url":"\#(url)"}"#
            let created = try await server.addActivity(as: "alice", extra: #""attachments":[\#(link),\#(file)]"#)
            #expect(created["attachments"].array.map { $0["custom"] } == [.object([:]), .object([:])])
            #expect(created["attachments"][1]["asset_url"].string != nil)
            let id = try #require(created["id"].string)

            let put = try await server.api(
                .PUT, "/feeds/activities/\(id)", as: "alice", json: #"{"text":"edited","attachments":[\#(link)]}"#)
            #expect(put.status == 201, "\(put.text)")
            #expect(put.body["activity"]["attachments"][0]["custom"] == .object([:]))

            let patch = try await server.api(
                .PATCH, "/feeds/activities/\(id)", as: "alice", json: #"{"set":{"attachments":[\#(file)]}}"#)
            #expect(patch.status == 200, "\(patch.text)")
            #expect(patch.body["activity"]["attachments"][0]["custom"] == .object([:]))
            #expect(patch.body["activity"]["attachments"][0]["asset_url"].string != nil)
        }
    }

    @Test(arguments: ["undefined", "", "null"])
    func optionalPartsThatSayNothingAreLeftOut(text: String) async throws {
        try await TestServer.run { server in
            var image = MultipartForm()
            image.add("file", fileName: "p.png", Data(PNGWriter.png(width: 8, height: 8)))
            image.add("user", Data(text.utf8))
            image.add("upload_sizes", Data(text.utf8))
            let reply = try await server.upload("/uploads/image", as: "alice", form: image)
            #expect(reply.status == 201, "\(reply.text)")
            #expect(reply.body["upload_sizes"].isNull)
            #expect(try await server.number("SELECT count(*) FROM cdn_objects WHERE owner_id = 'alice'") == 1)

            var file = MultipartForm()
            file.add("file", fileName: "a.txt", Data("a\n".utf8))
            file.add("user", Data(text.utf8))
            #expect(try await server.upload("/uploads/file", as: "alice", form: file).status == 201)

            // A part that does say something is still checked.
            var bad = MultipartForm()
            bad.add("file", fileName: "a.txt", Data("a\n".utf8))
            bad.add("user", Data("{not json".utf8))
            expectAPIError(try await server.upload("/uploads/file", as: "alice", form: bad), status: 400, code: 4)
        }
    }
}
