import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// An object's life: stored, attached, released when nothing references it any more, then
/// deleted by gc; never deleted while attached, never attached once its bytes are gone.
@Suite struct ObjectLifecycleTests {
    static let notes = Data("some notes\n".utf8)

    /// Posts an activity as alice with one file sent along; returns its id, the file's URL and key.
    func postWithUpload(_ server: TestServer) async throws -> (id: String, url: String, key: String) {
        var form = MultipartForm()
        form.add("activity", json: #"{"type":"post","feeds":["user:alice"],"attachment_uploads":[{"type":"file","file":"f"}]}"#)
        form.add("f", fileName: "notes.txt", Self.notes)
        let reply = try await server.upload("/feeds/activities", as: "alice", form: form)
        #expect(reply.status == 201, "\(reply.text)")
        let url = try #require(reply.body["activity"]["attachments"][0]["asset_url"].string)
        return (try #require(reply.body["activity"]["id"].string), url, try server.objectKey(of: url))
    }

    /// Ages `key` past every TTL and sweeps; then it is deleted, its URL 404 and its bytes gone.
    func expectSweptAway(_ key: String, url: String, _ server: TestServer, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        try await server.age(key)
        try await server.sweep()
        #expect(try await server.state(of: key) == "deleted", sourceLocation: sourceLocation)
        #expect(try await server.fetch(url).status == 404, sourceLocation: sourceLocation)
        let stored = try await server.storedObjects()
        #expect(!stored.contains { $0 == key || $0.hasSuffix("/" + key) }, "\(stored)", sourceLocation: sourceLocation)
    }

    // 5. A hard delete releases the activity's uploads; gc then deletes them.
    @Test(arguments: Backend.allCases) func aHardDeleteReleasesItsUploadsForGC(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let (id, url, key) = try await postWithUpload(server)
            #expect(try await server.state(of: key) == "attached")
            let deleted = try await server.api(.DELETE, "/feeds/activities/\(id)", as: "alice", query: "&hard_delete=true")
            #expect(deleted.status == 200, "\(deleted.text)")
            #expect(try await server.state(of: key) == "released")
            try await expectSweptAway(key, url: url, server)
        }
    }

    // 5. A soft delete keeps them: the activity may still be restored or hard-deleted later.
    @Test(arguments: Backend.allCases) func aSoftDeleteKeepsItsUploadsAttached(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let (id, url, key) = try await postWithUpload(server)
            #expect(try await server.api(.DELETE, "/feeds/activities/\(id)", as: "alice").status == 200)
            #expect(try await server.state(of: key) == "attached")
            try await server.age(key)
            try await server.sweep()
            #expect(try await server.state(of: key) == "attached")
            #expect(try await server.stores(key))
            #expect(try await server.fetch(url).data == Self.notes)
        }
    }

    // 5. An edit that drops an upload releases it.
    @Test(arguments: Backend.allCases) func anUploadDroppedByAnEditIsReleased(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let (id, url, key) = try await postWithUpload(server)
            let patched = try await server.api(
                .PATCH, "/feeds/activities/\(id)", as: "alice", json: #"{"set":{"attachments":[]}}"#)
            #expect(patched.status == 200, "\(patched.text)")
            #expect(patched.body["activity"]["attachments"] == .array([]))
            #expect(try await server.state(of: key) == "released")
            try await expectSweptAway(key, url: url, server)
        }
    }

    // 5. An upload two activities link stays while either of them does.
    @Test(arguments: Backend.allCases) func anUploadLinkedTwiceStaysWhileOneActivityHoldsIt(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let url = try await server.uploadFile(as: "alice")
            let key = try server.objectKey(of: url)
            let link = #""attachments":[{"type":"file","asset_url":"\#(url)","custom":{}}]"#
            let first = try #require(try await server.addActivity(as: "alice", extra: link)["id"].string)
            let second = try #require(try await server.addActivity(as: "alice", extra: link)["id"].string)
            #expect(try await server.number("SELECT count(*) FROM attachments WHERE object_key = \(key)") == 2)

            let deleted = try await server.api(.DELETE, "/feeds/activities/\(first)", as: "alice", query: "&hard_delete=true")
            #expect(deleted.status == 200)
            #expect(try await server.state(of: key) == "attached")
            try await server.age(key)
            try await server.sweep()
            #expect(try await server.state(of: key) == "attached")
            let read = try await server.api(.GET, "/feeds/activities/\(second)", as: "alice")
            let served = try #require(read.body["activity"]["attachments"][0]["asset_url"].string)
            #expect(try await server.fetch(served).data == Data("some notes\n".utf8))

            #expect(
                try await server.api(.DELETE, "/feeds/activities/\(second)", as: "alice", query: "&hard_delete=true").status
                    == 200)
            #expect(try await server.state(of: key) == "released")
        }
    }

    // 6. gc and an activity linking the same aged upload, at once: one of them wins, cleanly.
    @Test(arguments: Backend.allCases) func gcAndALinkRacingEndOneWayOrTheOther(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            for round in 1...20 {
                let url = try await server.uploadFile(as: "alice", name: "r\(round).txt", Data("round \(round)\n".utf8))
                let key = try server.objectKey(of: url)
                try await server.age(key)
                async let swept = server.sweep()
                async let linked = server.api(
                    .POST, "/feeds/activities", as: "alice",
                    json:
                        #"{"type":"post","feeds":["user:alice"],"attachments":[{"type":"file","asset_url":"\#(url)","custom":{}}]}"#
                )
                let (reply, _) = try await (linked, swept)
                let state = try await server.state(of: key)
                #expect(reply.status < 500, "round \(round): \(reply.text)")
                if reply.status == 201 {
                    let served = try #require(reply.body["activity"]["attachments"][0]["asset_url"].string)
                    let fetched = try await server.fetch(served)
                    #expect(fetched.status == 200, "round \(round): attached, but its bytes are gone")
                    #expect(fetched.text == "round \(round)\n", "round \(round)")
                    #expect(state == "attached", "round \(round)")
                } else {
                    expectAPIError(reply, status: 400, code: 4)
                    #expect(state == "deleted", "round \(round)")
                    #expect(try await !server.stores(key), "round \(round)")
                }
            }
        }
    }

    // 8. Resized variants and the hot copy of an original go when the original is deleted.
    @Test(arguments: Backend.allCases) func variantsAndHotCopiesGoWithTheirOriginal(backend: Backend) async throws {
        try await TestServer.run(backend: backend) { server in
            let url = try await server.uploadFile(
                as: "alice", name: "p.png", Data(PNGWriter.png(width: 300, height: 200)), to: "/uploads/image")
            let variant = url + "&w=100&h=100"
            #expect(try await server.fetch(variant).status == 200)
            #expect(try await server.fetch(url).status == 200)
            #expect(try await server.fetch(url).status == 200)  // from memory now, on disk
            let deleted = try await server.api(.DELETE, "/uploads/image", as: "alice", query: "&url=\(queryEncoded(url))")
            #expect(deleted.status == 200, "\(deleted.text)")
            expectAPIError(try await server.fetch(variant), status: 404, code: 16)
            expectAPIError(try await server.fetch(url), status: 404, code: 16)
            #expect(try await server.state(of: try server.objectKey(of: url)) == "deleted")
        }
    }
}
