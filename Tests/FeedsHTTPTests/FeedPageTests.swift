import FeedsAPI
import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

@testable import FeedsHTTP
@testable import FeedsWire

/// The feed pages come from hand-written routes (`FeedPageRoutes`, `JSONWriter`): their replies
/// must decode as the reference's response types and show each activity exactly as the generated
/// handlers do, and bad input must be refused as the generated routes refuse it.
@Suite struct FeedPageTests {
    /// Activities with every kind of content a page carries: escapes, custom data, a linked
    /// upload (signed URLs and a thumbnail), an edit.
    func fill(_ server: TestServer) async throws -> [String] {
        var form = MultipartForm()
        form.add("file", fileName: "p.png", Data(PNGWriter.png(width: 40, height: 30)))
        let image = try #require(try await server.upload("/uploads/image", as: "alice", form: form).body["file"].string)
        var ids: [String] = []
        ids.append(
            try #require(try await server.addActivity(as: "alice", text: #"quote \" backslash \\ newline \n ✓"#)["id"].string))
        ids.append(
            try #require(
                try await server.addActivity(
                    as: "alice", type: "photo",
                    extra: #"""
                        "custom":{"n":1,"x":2.5,"nested":{"list":[true,null,"s"]}},"visibility":"public",
                        "attachments":[{"type":"image","image_url":"\#(image)","custom":{"k":"v"}},
                                       {"type":"link","asset_url":"https://example.com/a","title":"A","custom":{}}]
                        """#)["id"].string))
        let edited = try await server.api(.PATCH, "/feeds/activities/\(ids[0])", as: "alice", json: #"{"set":{"text":"edited"}}"#)
        #expect(edited.status == 200, "\(edited.text)")
        return ids
    }

    @Test func pagesDecodeAsTheReferenceTypesAndMatchTheGeneratedActivityReplies() async throws {
        try await TestServer.run { server in
            let ids = try await fill(server)
            let feed = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "alice", json: #"{"limit":25}"#)
            #expect(feed.status == 201, "\(feed.text)")
            #expect(feed.headers["Content-Type"].first == "application/json; charset=utf-8")
            let decoded = try JSONDecoder().decode(Components.Schemas.GetOrCreateFeedResponse.self, from: feed.data)
            #expect(decoded.activities.map(\.id) == ids.reversed())
            #expect(decoded.feed.feed == "user:alice" && decoded.feed.activityCount == 2 && !decoded.created)

            let query = try await server.api(.POST, "/feeds/activities/query", as: "alice", json: #"{"limit":1}"#)
            #expect(query.status == 201, "\(query.text)")
            let page = try JSONDecoder().decode(Components.Schemas.QueryActivitiesResponse.self, from: query.data)
            #expect(page.activities.map(\.id) == [ids[1]] && page.next != nil && page.prev == nil)

            // Each activity as GET /feeds/activities/{id} (a generated handler) shows it; both name
            // the feed it is read in (`current_feed`).
            for (index, id) in ids.reversed().enumerated() {
                let single = try await server.api(.GET, "/feeds/activities/\(id)", as: "alice")
                guard case .object(var onPage) = feed.body["activities"][index], case .object(var alone) = single.body["activity"]
                else { Issue.record("no activity"); continue }
                #expect(onPage.removeValue(forKey: "current_feed")?["feed"].string == "user:alice")
                #expect(alone.removeValue(forKey: "current_feed")?["feed"].string == "user:alice")
                #expect(Self.unsigned(.object(onPage)) == Self.unsigned(.object(alone)))
            }
            let attachments = feed.body["activities"][0]["attachments"]
            #expect(attachments[0]["thumb_url"].string?.contains("&w=512&h=512") == true)
            #expect(attachments[1]["asset_url"].string == "https://example.com/a")
        }
    }

    @Test func badInputIsRefusedAsOnTheGeneratedRoutes() async throws {
        try await TestServer.run { server in
            let path = "/feeds/feed_groups/user/feeds/alice"
            let plain = try await server.api(.POST, path, as: "alice", headers: [("Content-Type", "text/plain")])
            expectAPIError(plain, status: 415, code: 4)
            let malformed = try await server.api(.POST, path, as: "alice", json: "{")
            expectAPIError(malformed, status: 400, code: 4)
            let wrongType = try await server.api(.POST, "/feeds/activities/query", as: "alice", json: #"{"limit":"x"}"#)
            expectAPIError(wrongType, status: 400, code: 4, field: "limit")
            let translate = try await server.api(.POST, path, as: "alice", json: "{}", query: "&translate_text=maybe")
            expectAPIError(translate, status: 400, code: 4, field: "translate_text")
            let wrongMethod = try await server.api(.PATCH, path, as: "alice", json: "{}")
            expectAPIError(wrongMethod, status: 405, code: 4)
            #expect(wrongMethod.headers["Allow"].first == "DELETE, POST, PUT")
            let anonymous = try await server.send(.POST, "/api/v2\(path)?api_key=\(server.apiKey)", body: Data("{}".utf8))
            expectAPIError(anonymous, status: 401, code: 5)
            let encoded = try await server.api(.POST, "/feeds/feed_groups/user/feeds/al%69ce", as: "alice", json: "{}")
            #expect(encoded.body["feed"]["feed"].string == "user:alice", "\(encoded.text)")
            #expect(try await server.api(.POST, path, as: "alice", json: "{}", query: "&translate_text=true").status == 201)
        }
    }

    /// A reply with its signed URLs' expiry and signature set aside (each request signs afresh).
    static func unsigned(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(withoutSignatures(text))
        case .array(let values): .array(values.map(unsigned))
        case .object(let fields): .object(fields.mapValues(unsigned))
        default: value
        }
    }
}
