import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// Who may link which object, and what an attachment says about it: only the server decides
/// which object an attachment holds, and its kind and metadata come from the object's record.
@Suite struct AttachmentOwnershipTests {
    static let png = Data(PNGWriter.png(width: 64, height: 48))

    /// The three ways an attachment list reaches an activity.
    enum Write: String, CaseIterable, Sendable, CustomStringConvertible {
        case post, put, patch
        var description: String { rawValue }
    }

    /// Sends `attachments` (a JSON array) as `user` the way `write` does; `id` is the activity that
    /// PUT and PATCH change.
    func send(_ write: Write, _ attachments: String, to id: String, as user: String, on server: TestServer) async throws
        -> TestServer.Reply
    {
        switch write {
        case .post:
            try await server.api(
                .POST, "/feeds/activities", as: user,
                json: #"{"type":"post","feeds":["user:\#(user)"],"text":"new","attachments":\#(attachments)}"#)
        case .put:
            try await server.api(
                .PUT, "/feeds/activities/\(id)", as: user,
                json: #"{"text":"changed","feeds":["user:\#(user)"],"attachments":\#(attachments)}"#)
        case .patch:
            try await server.api(
                .PATCH, "/feeds/activities/\(id)", as: user, json: #"{"set":{"attachments":\#(attachments)}}"#)
        }
    }

    /// No attachment of `activity` shows an object's URL.
    func expectNoObjectURLs(_ activity: JSONValue, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for attachment in activity["attachments"].array {
            for field in ["asset_url", "image_url", "thumb_url"] {
                #expect(attachment[field].isNull, "\(context): \(field) in \(attachment.text)", sourceLocation: sourceLocation)
            }
        }
    }

    // 2. A client cannot name an object key: `_object_key` is the server's own field.
    @Test(arguments: Backend.allCases, Write.allCases)
    func aClientSentObjectKeyLinksNothing(backend: Backend, write: Write) async throws {
        try await TestServer.run(backend: backend) { server in
            let bobs = try await server.uploadFile(as: "bob")
            let key = try server.objectKey(of: bobs)
            let target = try #require(try await server.addActivity(as: "alice", text: "original")["id"].string)

            let reply = try await send(
                write, #"[{"type":"file","custom":{},"_object_key":"\#(key)"}]"#, to: target, as: "alice", on: server)
            #expect(reply.status < 500, "\(reply.text)")
            expectNoObjectURLs(reply.body["activity"], "\(write) reply")
            let id = write == .post ? reply.body["activity"]["id"].string : target
            if let id {
                let read = try await server.api(.GET, "/feeds/activities/\(id)", as: "alice")
                expectNoObjectURLs(read.body["activity"], "GET after \(write)")
            }
            #expect(try await server.number("SELECT count(*) FROM attachments WHERE object_key = \(key)") == 0)
            #expect(try await server.state(of: key) == "stored")
        }
    }

    // 3. Another user's signed URL is refused, whichever write carries it, and changes nothing.
    @Test(arguments: Backend.allCases, Write.allCases)
    func anotherUsersURLIsRefused(backend: Backend, write: Write) async throws {
        try await TestServer.run(backend: backend) { server in
            let bobs = try await server.uploadFile(as: "bob")
            let key = try server.objectKey(of: bobs)
            let target = try #require(try await server.addActivity(as: "alice", text: "original")["id"].string)

            let reply = try await send(
                write, #"[{"type":"file","custom":{},"asset_url":"\#(bobs)"}]"#, to: target, as: "alice", on: server)
            expectAPIError(reply, status: 403, code: 17)

            let read = try await server.api(.GET, "/feeds/activities/\(target)", as: "alice")
            #expect(read.body["activity"]["text"].string == "original")
            #expect(read.body["activity"]["attachments"] == .array([]), "\(read.text)")
            #expect(try await server.number("SELECT count(*) FROM activities") == 1)
            #expect(try await server.number("SELECT count(*) FROM attachments") == 0)
            #expect(try await server.state(of: key) == "stored")
        }
    }

    // 4. An edit that sends back the attachments exactly as a GET returned them keeps the uploads
    // linked: one sent with the activity, one linked from an earlier upload.
    @Test(arguments: Backend.allCases, [Write.put, .patch])
    func anEditSendingBackWhatAGetReturnedKeepsTheLinks(backend: Backend, write: Write) async throws {
        try await TestServer.run(backend: backend) { server in
            let earlier = try await server.uploadFile(as: "alice", name: "p.png", Self.png, to: "/uploads/image")
            var form = MultipartForm()
            form.add(
                "activity",
                json: #"""
                    {"type":"post","feeds":["user:alice"],"text":"look",
                     "attachments":[{"type":"image","image_url":"\#(earlier)","custom":{}}],
                     "attachment_uploads":[{"type":"file","file":"notes"}]}
                    """#)
            form.add("notes", fileName: "notes.txt", Data("some notes\n".utf8))
            let posted = try await server.upload("/feeds/activities", as: "alice", form: form)
            #expect(posted.status == 201, "\(posted.text)")
            let id = try #require(posted.body["activity"]["id"].string)
            let keys = try await server.attachmentKeys(of: id)
            #expect(keys.count == 2 && keys.allSatisfy { $0 != nil }, "\(keys)")

            let returned = try await server.api(.GET, "/feeds/activities/\(id)", as: "alice").body["activity"]["attachments"]
            #expect(returned.array.count == 2)
            let reply = try await send(write, returned.text, to: id, as: "alice", on: server)
            #expect(reply.status == 200 || reply.status == 201, "\(reply.text)")

            #expect(try await server.attachmentKeys(of: id) == keys)
            for key in keys.compactMap({ $0 }) { #expect(try await server.state(of: key) == "attached", "\(key)") }
            let attachments = reply.body["activity"]["attachments"].array
            #expect(attachments.count == 2)
            let image = try #require(attachments.first?["image_url"].string)
            #expect(try await server.fetch(image).data == Self.png)
            let notes = try #require(attachments.last?["asset_url"].string)
            #expect(try await server.fetch(notes).text == "some notes\n")
        }
    }

    // 9. A file upload is not an image, whatever its bytes: linking it as one is refused.
    @Test(arguments: Backend.allCases) func aFileUploadCannotBeLinkedAsAnImage(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let url = try await server.uploadFile(as: "alice", name: "p.png", Self.png)
            let reply = try await server.api(
                .POST, "/feeds/activities", as: "alice",
                json:
                    #"{"type":"post","feeds":["user:alice"],"attachments":[{"type":"image","image_url":"\#(url)","custom":{}}]}"#
            )
            expectAPIError(reply, status: 400, code: 4)
            #expect(try await server.number("SELECT count(*) FROM activities") == 0)
            #expect(try await server.state(of: try server.objectKey(of: url)) == "stored")
        }
    }

    // 9. The type, size and dimensions of a linked upload are the record's, not the client's.
    @Test(arguments: Backend.allCases) func aLinkedUploadsMetadataComesFromItsRecord(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let url = try await server.uploadFile(as: "alice", name: "p.png", Self.png, to: "/uploads/image")
            let reply = try await server.api(
                .POST, "/feeds/activities", as: "alice",
                json: #"""
                    {"type":"post","feeds":["user:alice"],"attachments":[{"type":"image","image_url":"\#(url)",
                     "mime_type":"text/html","file_size":1,"original_width":99999,"custom":{}}]}
                    """#)
            #expect(reply.status == 201, "\(reply.text)")
            for attachment in [
                reply.body["activity"]["attachments"][0],
                try await server.api(.GET, "/feeds/activities/\(reply.body["activity"]["id"].string ?? "")", as: "alice")
                    .body["activity"]["attachments"][0],
            ] {
                #expect(attachment["mime_type"].string == "image/png", "\(attachment.text)")
                #expect(attachment["file_size"].int == Self.png.count, "\(attachment.text)")
                #expect(attachment["original_width"].int == 64, "\(attachment.text)")
                #expect(attachment["image_url"].string != nil, "\(attachment.text)")
            }
        }
    }
}
