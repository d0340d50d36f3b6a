import FeedsAPI
import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

@testable import FeedsHTTP
@testable import FeedsWire

/// A JSON create is answered by a hand-written route (`AddActivityRoute`, `JSONWriter`); a
/// multipart create by the generated handler behind it. Clients must not see the seam.
@Suite struct AddActivityRouteTests {
    let body = #"{"type":"post","feeds":["user:alice"],"text":"tab\t \"quoted\" ✓","custom":{"n":1.5,"list":[null,true]}}"#

    func create(_ server: TestServer, contentType: String?, body: String) async throws -> TestServer.Reply {
        var headers = [("Stream-Auth-Type", "jwt"), ("Authorization", try await server.token("alice"))]
        if let contentType { headers.append(("Content-Type", contentType)) }
        return try await server.send(
            .POST, "/api/v2/feeds/activities?api_key=\(server.apiKey)", body: Data(body.utf8), headers: headers)
    }

    @Test func theReplyDecodesAsTheReferenceResponseAndMatchesTheGeneratedRead() async throws {
        try await TestServer.run { server in
            let reply = try await server.api(.POST, "/feeds/activities", as: "alice", json: body)
            #expect(reply.status == 201, "\(reply.text)")
            #expect(reply.headers["Content-Type"].first == "application/json; charset=utf-8")
            let decoded = try JSONDecoder().decode(Components.Schemas.AddActivityResponse.self, from: reply.data)
            #expect(decoded.activity.text == "tab\t \"quoted\" ✓" && decoded.activity.user.id == "alice")
            #expect(decoded.activity.custom.additionalProperties["n"]?.value as? Double == 1.5)

            // A read names the feed it is read in (`current_feed`); the rest is the same.
            let got = try await server.api(.GET, "/feeds/activities/\(decoded.activity.id)", as: "alice")
            guard case .object(var read) = got.body["activity"] else { Issue.record("\(got.text)"); return }
            #expect(read.removeValue(forKey: "current_feed")?["feed"].string == "user:alice")
            #expect(JSONValue.object(read) == reply.body["activity"])
        }
    }

    /// Content types are read as the generated route reads them: none or a wildcard is JSON,
    /// `multipart/form-data` goes to the generated handler, anything else is a 415.
    @Test func contentTypesAreReadAsTheGeneratedRouteReadsThem() async throws {
        try await TestServer.run { server in
            for type in [nil, "application/json", "application/json; charset=utf-8", "*/*", "multipart/*"] {
                let reply = try await create(server, contentType: type, body: body)
                #expect(reply.status == 201, "\(type ?? "none"): \(reply.text)")
            }
            expectAPIError(try await create(server, contentType: "text/plain", body: body), status: 415, code: 4)

            var form = MultipartForm()
            form.add("activity", json: #"{"type":"post","feeds":["user:alice"],"text":"multipart"}"#)
            let multipart = try await server.upload("/feeds/activities", as: "alice", form: form)
            #expect(multipart.status == 201, "\(multipart.text)")
            #expect(multipart.body["activity"]["text"].string == "multipart")
            let malformed = try await create(server, contentType: "multipart/form-data; boundary=x", body: "not a form")
            expectAPIError(malformed, status: 400, code: 4)

            let feed = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "alice", json: "{}")
            #expect(feed.body["activities"].array.count == 6)
        }
    }

    @Test func badJSONIsRefusedAsOnTheGeneratedRoute() async throws {
        try await TestServer.run { server in
            expectAPIError(try await server.api(.POST, "/feeds/activities", as: "alice", json: "{"), status: 400, code: 4)
            let wrongType = try await server.api(.POST, "/feeds/activities", as: "alice", json: #"{"type":"post","feeds":"x"}"#)
            expectAPIError(wrongType, status: 400, code: 4, field: "feeds")
            let missing = try await server.api(.POST, "/feeds/activities", as: "alice", json: #"{"feeds":["user:alice"]}"#)
            expectAPIError(missing, status: 400, code: 4, field: "type")
            let big = try await server.api(
                .POST, "/feeds/activities", as: "alice",
                json: #"{"type":"post","feeds":["user:alice"],"text":"\#(String(repeating: "x", count: 2 << 20))"}"#)
            #expect(big.status == 413)
            let feed = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "alice", json: "{}")
            #expect(feed.body["activities"].array.isEmpty)
        }
    }
}
