import FeedsTestSupport
import Foundation
import Testing

/// Fields the server accepts without acting on them still hold to the bounds the spec declares,
/// and an optional field sent as null is as if absent (found by schema fuzzing, `make test`).
@Suite struct DeclaredBoundsTests {
    static let fiftyOneTags = (0...50).map { "\"t\($0)\"" }.joined(separator: ",")
    static let longID = String(repeating: "m", count: 256)

    @Test(arguments: [
        ("/feeds/activities", #"{"type":"post","feeds":["user:alice"],"filter_tags":[\#(fiftyOneTags)]}"#, "filter_tags"),
        ("/feeds/activities", #"{"type":"post","feeds":["user:alice"],"parent_id":"\#(longID)"}"#, "parent_id"),
        ("/feeds/activities", #"{"type":"post","feeds":["user:alice"],"location":{"lat":91,"lng":0}}"#, "location"),
        ("/feeds/activities/query", #"{"sort":[{},{},{},{},{},{}]}"#, "sort"),
        ("/feeds/feed_groups/user/feeds/alice", #"{"member_pagination":{"limit":101}}"#, "member_pagination.limit"),
        ("/feeds/feed_groups/user/feeds/alice", #"{"friend_reactions_options":{"limit":0}}"#, "friend_reactions_options.limit"),
        ("/feeds/feed_groups/user/feeds/alice", #"{"data":{"members":[{"user_id":"\#(longID)"}]}}"#, "data.members[0].user_id"),
    ])
    func boundsOfUnusedFieldsAreEnforced(path: String, body: String, field: String) async throws {
        try await TestServer.run { server in
            expectAPIError(try await server.api(.POST, path, as: "alice", json: body), status: 400, code: 4, field: field)
        }
    }

    @Test func nullMeansAbsentForOptionalFieldsAndIsRefusedWhereAValueIsRequired() async throws {
        try await TestServer.run { server in
            let added = try await server.api(
                .POST, "/feeds/activities", as: "alice",
                json: #"{"type":"post","feeds":["user:alice"],"text":null,"custom":null,"visibility":null,"user_id":null}"#)
            #expect(added.status == 201, "\(added.text)")
            #expect(added.body["activity"]["visibility"].string == "public")
            let query = try await server.api(.POST, "/feeds/activities/query", as: "alice", json: #"{"user_id":null,"limit":null}"#)
            #expect(query.status == 201 && query.body["activities"].array.count == 1, "\(query.text)")
            let user = try await server.api(.POST, "/users", as: nil, json: #"{"users":{"bob":null}}"#)
            expectAPIError(user, status: 400, code: 4, field: "users.bob")
            expectAPIError(try await server.api(.POST, "/feeds/activities", as: "alice", json: "null"), status: 400, code: 4)
        }
    }

    @Test func readsCheckTheirQueryParameters() async throws {
        try await TestServer.run { server in
            let id = try #require(try await server.addActivity(as: "alice")["id"].string)
            let comments = try await server.api(.GET, "/feeds/activities/\(id)", as: "alice", query: "&comment_limit=21")
            expectAPIError(comments, status: 400, code: 4, field: "comment_limit")
            let translate = try await server.api(.POST, "/feeds/activities/query", as: "alice", json: "{}", query: "&translate_text=1")
            expectAPIError(translate, status: 400, code: 4, field: "translate_text")
        }
    }
}
