import FeedsTestSupport
import Testing

/// PostgreSQL stores no NUL character (`\u0000`), in text or in jsonb. A body holding one is the
/// client's mistake: 400, and nothing written (schema fuzzing found it as a 500).
@Suite struct UnstorableTextTests {
    @Test(arguments: [
        #"{"type":"post","feeds":["user:alice"],"text":"a\u0000b"}"#,
        #"{"type":"post","feeds":["user:alice"],"custom":{"k\u0000":1}}"#,
        #"{"type":"post","feeds":["user:alice"],"custom":{"k":["x\u0000"]}}"#,
        #"{"type":"post\u0000","feeds":["user:alice"]}"#,
        #"{"type":"post","feeds":["user:alice"],"attachments":[{"type":"link","title":"\u0000"}]}"#,
    ])
    func aNulCharacterIsRefusedAndNothingIsWritten(body: String) async throws {
        try await TestServer.run { server in
            expectAPIError(try await server.api(.POST, "/feeds/activities", as: "alice", json: body), status: 400, code: 4)
            let stored = try await server.api(.POST, "/feeds/activities/query", as: nil, json: "{}")
            #expect(stored.body["activities"] == .array([]))
        }
    }

    @Test func updatesAndUsersRefuseItToo() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let put = try await server.api(
                .PUT, "/feeds/activities/\(id)", as: "alice", json: #"{"text":"x","custom":{"\u0000":true}}"#)
            expectAPIError(put, status: 400, code: 4)
            let patch = try await server.api(
                .PATCH, "/feeds/activities/\(id)", as: "alice", json: #"{"set":{"text":"\u0000"}}"#)
            expectAPIError(patch, status: 400, code: 4)
            #expect(try await server.api(.GET, "/feeds/activities/\(id)", as: "alice").body["activity"]["text"].string == "hello")
            let user = try await server.api(.POST, "/users", as: nil, json: #"{"users":{"bob":{"id":"bob","name":"b\u0000b"}}}"#)
            expectAPIError(user, status: 400, code: 4)
        }
    }
}
