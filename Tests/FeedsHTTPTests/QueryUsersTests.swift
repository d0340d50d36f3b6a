import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// QueryUsers: `GET /api/v2/users?payload=<json>`, as Stream's SDKs read users.
@Suite struct QueryUsersTests {
    func query(_ server: TestServer, _ payload: String, as user: String? = nil) async throws -> TestServer.Reply {
        let encoded = payload.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return try await server.api(.GET, "/users", as: user, query: "&payload=\(encoded)")
    }

    func ids(_ reply: TestServer.Reply) -> [String] {
        #expect(reply.status == 200, "\(reply.text)")
        return reply.body["users"].array.compactMap { $0["id"].string }
    }

    func seed(_ server: TestServer) async throws {
        let reply = try await server.api(
            .POST, "/users", as: nil,
            json: #"""
                {"users":{"ann":{"id":"ann","name":"Ann Lee","role":"admin"},"anna":{"id":"anna","name":"Anna Karenina"},
                "bob":{"id":"bob","name":"Bob Annandale"},"carl":{"id":"carl","name":"Carl 100%_sure"}}}
                """#)
        #expect(reply.status == 201, "\(reply.text)")
    }

    @Test func filtersOnIdsNamesAndRolesInTheAskedOrder() async throws {
        try await TestServer.run { server in
            try await seed(server)
            let sortByID = #""sort":[{"field":"id","direction":1}]"#
            #expect(ids(try await query(server, #"{"filter_conditions":{"id":{"$in":["bob","ann","nobody"]}},\#(sortByID)}"#)) == ["ann", "bob"])
            #expect(ids(try await query(server, #"{"filter_conditions":{"id":{"$eq":"carl"}}}"#)) == ["carl"])
            #expect(ids(try await query(server, #"{"filter_conditions":{"id":"carl"}}"#)) == ["carl"])
            #expect(ids(try await query(server, #"{"filter_conditions":{"id":{"$autocomplete":"an"}},\#(sortByID)}"#)) == ["ann", "anna"])
            // A word of the name starts with it, in any case: "Ann Lee", "Anna Karenina", not "Bob Annandale"'s middle.
            let names = #"{"filter_conditions":{"name":{"$autocomplete":"ANN"}},\#(sortByID)}"#
            #expect(ids(try await query(server, names)) == ["ann", "anna", "bob"])
            #expect(ids(try await query(server, #"{"filter_conditions":{"name":{"$autocomplete":"kar"}}}"#)) == ["anna"])
            // LIKE's wildcards are letters like any other.
            #expect(ids(try await query(server, #"{"filter_conditions":{"name":{"$autocomplete":"100%_"}}}"#)) == ["carl"])
            #expect(ids(try await query(server, #"{"filter_conditions":{"name":{"$autocomplete":"%"}}}"#)) == [])
            #expect(ids(try await query(server, #"{"filter_conditions":{"role":"admin"}}"#)) == ["ann"])
            let descending = #"{"filter_conditions":{"id":{"$in":["ann","bob","carl"]}},"sort":[{"field":"name","direction":-1}]}"#
            #expect(ids(try await query(server, descending)) == ["carl", "bob", "ann"])
        }
    }

    @Test func pagesByLimitAndOffsetAndReadsTimesAsNanoseconds() async throws {
        try await TestServer.run { server in
            try await seed(server)
            let all = #""filter_conditions":{"id":{"$in":["ann","anna","bob","carl"]}},"sort":[{"field":"id","direction":1}]"#
            #expect(ids(try await query(server, #"{\#(all),"limit":2}"#)) == ["ann", "anna"])
            #expect(ids(try await query(server, #"{\#(all),"limit":2,"offset":2}"#)) == ["bob", "carl"])
            #expect(ids(try await query(server, #"{\#(all),"limit":2,"offset":4}"#)) == [])

            // Any signed-in user may list users; times are integers, and filter as such or as RFC 3339.
            let reply = try await query(server, #"{"filter_conditions":{"id":"ann"}}"#, as: "bob")
            let created = try #require(reply.body["users"][0]["created_at"].time)
            #expect(reply.body["users"][0]["name"].string == "Ann Lee")
            let nanos = WireTime.nanoseconds(created)
            #expect(ids(try await query(server, #"{"filter_conditions":{"id":"ann","created_at":{"$lte":\#(nanos)}}}"#)) == ["ann"])
            #expect(ids(try await query(server, #"{"filter_conditions":{"id":"ann","created_at":{"$gt":\#(nanos)}}}"#)) == [])
            let text = RFC3339.string(from: created)
            #expect(ids(try await query(server, #"{"filter_conditions":{"id":"ann","created_at":{"$gte":"\#(text)"}}}"#)) == ["ann"])
            // No payload lists everyone.
            #expect(ids(try await server.api(.GET, "/users", as: "bob")).count == 4)
        }
    }

    @Test(arguments: [
        (#"not json"#, "payload"),
        (#"[]"#, "payload"),
        (#"{"limit":5}"#, "payload"),
        (#"{"filter_conditions":{"email":{"$eq":"x"}}}"#, "filter_conditions.email"),
        (#"{"filter_conditions":{"id":{"$ne":"x"}}}"#, "filter.id"),
        (#"{"filter_conditions":{"id":{"$autocomplete":""}}}"#, "filter_conditions.id"),
        (#"{"filter_conditions":{"name":{"$autocomplete":7}}}"#, "filter_conditions.name"),
        (#"{"filter_conditions":{"created_at":{"$gt":"last week"}}}"#, "filter.created_at"),
        (#"{"filter_conditions":{},"limit":101}"#, "limit"),
        (#"{"filter_conditions":{},"limit":-1}"#, "limit"),
        (#"{"filter_conditions":{},"offset":1001}"#, "offset"),
        (#"{"filter_conditions":{},"offset":-5}"#, "offset"),
        (#"{"filter_conditions":{},"limit":99999999999}"#, "payload"),
        (#"{"filter_conditions":{},"sort":[{"field":"custom.score"}]}"#, "sort"),
        (#"{"filter_conditions":{},"sort":[{"field":"id","direction":2}]}"#, "sort"),
    ])
    func badPayloadsAreRefusedNamingTheField(payload: String, field: String) async throws {
        try await TestServer.run { server in
            expectAPIError(try await query(server, payload), status: 400, code: 4, field: field)
        }
    }

    @Test func hugeAndNestedPayloadsAreRefusedWithoutHarm() async throws {
        try await TestServer.run { server in
            let many = (0..<1001).map { "\"u\($0)\"" }.joined(separator: ",")
            expectAPIError(
                try await query(server, #"{"filter_conditions":{"id":{"$in":[\#(many)]}}}"#), status: 400, code: 4,
                field: "filter.id")
            let nested = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
            let deep = try await query(server, #"{"filter_conditions":{"id":\#(nested)}}"#)
            #expect(deep.status == 400, "\(deep.text)")
            // Past the query parameter's cap: refused, and the server still answers.
            let long = try await query(server, #"{"filter_conditions":{"name":{"$autocomplete":"\#(String(repeating: "a", count: 70000))"}}}"#)
            #expect((400..<500).contains(long.status), "\(long.text)")
            #expect(try await server.send(.GET, "/readyz").status == 200)
        }
    }
}
