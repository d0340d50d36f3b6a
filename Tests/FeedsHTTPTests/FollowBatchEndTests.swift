import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// UpdateFollow, UnfollowBatch and GetOrCreateUnfollows: who may change or end which follows, a
/// batch all or nothing, and the idempotent batch leaving out what is not there.
@Suite struct FollowBatchEndTests {
    func setUp(_ server: TestServer) async throws {
        for user in ["bob", "carl"] { try await server.createFeed("user:\(user)", owner: user) }
        try await server.createFeed("timeline:alice", owner: "alice")
        for target in ["user:bob", "user:carl"] {
            #expect(try await server.follow("timeline:alice", target, as: "alice").status == 201)
        }
    }

    @Test func theFollowerChangesTheirSettingsAndTheFollowedTheRole() async throws {
        try await TestServer.run { server in
            try await setUp(server)
            let pair = #""source":"timeline:alice","target":"user:bob""#
            let mine = try await server.api(
                .PATCH, "/feeds/follows", as: "alice", json: #"{\#(pair),"custom":{"close":true},"push_preference":"all"}"#)
            #expect(mine.status == 200, "\(mine.text)")
            #expect(mine.body["follow"]["custom"]["close"].bool == true && mine.body["follow"]["push_preference"].string == "all")
            // The followed feed's owner sets the role, and may not touch the follower's settings.
            let role = try await server.api(.PATCH, "/feeds/follows", as: "bob", json: #"{\#(pair),"follower_role":"fan"}"#)
            #expect(role.status == 200 && role.body["follow"]["follower_role"].string == "fan", "\(role.text)")
            #expect(role.body["follow"]["custom"]["close"].bool == true, "what it leaves out stays")
            expectAPIError(
                try await server.api(.PATCH, "/feeds/follows", as: "bob", json: #"{\#(pair),"custom":{"x":1}}"#), status: 403,
                code: 17)
            expectAPIError(
                try await server.api(.PATCH, "/feeds/follows", as: "alice", json: #"{\#(pair),"follower_role":"vip"}"#),
                status: 403, code: 17)
            expectAPIError(
                try await server.api(.PATCH, "/feeds/follows", as: "mallory", json: #"{\#(pair),"push_preference":"none"}"#),
                status: 403, code: 17)
            expectAPIError(
                try await server.api(
                    .PATCH, "/feeds/follows", as: "alice", json: #"{"source":"timeline:alice","target":"user:nobody"}"#),
                status: 404, code: 16)
            // The status is AcceptFollow's and RejectFollow's to change; naming the present one is fine.
            expectAPIError(
                try await server.api(.PATCH, "/feeds/follows", as: "alice", json: #"{\#(pair),"status":"pending"}"#),
                status: 400, code: 4, field: "status")
            let same = try await server.api(.PATCH, "/feeds/follows", as: "alice", json: #"{\#(pair),"status":"accepted"}"#)
            #expect(same.status == 200, "\(same.text)")
            let long = String(repeating: "r", count: 256)
            expectAPIError(
                try await server.api(.PATCH, "/feeds/follows", as: nil, json: #"{\#(pair),"follower_role":"\#(long)"}"#),
                status: 400, code: 4, field: "follower_role")
        }
    }

    @Test func aBatchEndsAllOrNothingAndTheUpsertSkipsWhatIsNotThere() async throws {
        try await TestServer.run { server in
            try await setUp(server)
            let both = #"[{"source":"timeline:alice","target":"user:bob"},{"source":"timeline:alice","target":"user:carl"}]"#
            // mallory owns neither feed: nothing ends.
            expectAPIError(
                try await server.api(.POST, "/feeds/unfollow/batch", as: "mallory", json: #"{"follows":\#(both)}"#), status: 403,
                code: 17)
            // One that does not exist fails the batch, and the other stays.
            let withGhost =
                #"{"follows":[{"source":"timeline:alice","target":"user:bob"},{"source":"timeline:alice","target":"user:dora"}]}"#
            expectAPIError(
                try await server.api(.POST, "/feeds/unfollow/batch", as: "alice", json: withGhost), status: 404, code: 16)
            #expect(try await server.number("SELECT count(*)::int FROM follows") == 2)
            // The upsert leaves it out and ends the rest.
            let upsert = try await server.api(.POST, "/feeds/unfollow/batch/upsert", as: "alice", json: withGhost)
            #expect(upsert.status == 201, "\(upsert.text)")
            #expect(upsert.body["follows"].array.compactMap { $0["target_feed"]["feed"].string } == ["user:bob"])
            #expect(upsert.body["follows"][0]["target_feed"]["follower_count"].int == 0, "counts after: \(upsert.text)")
            // Again: nothing left to end, still 201.
            let again = try await server.api(.POST, "/feeds/unfollow/batch/upsert", as: "alice", json: withGhost)
            #expect(again.status == 201 && again.body["follows"].array.isEmpty, "\(again.text)")
            // The followed feed's owner may end a follow of it.
            let removed = try await server.api(
                .POST, "/feeds/unfollow/batch", as: "carl",
                json: #"{"follows":[{"source":"timeline:alice","target":"user:carl","keep_history":true}]}"#)
            #expect(removed.status == 201 && removed.body["follows"].array.count == 1, "\(removed.text)")
            #expect(try await server.number("SELECT count(*)::int FROM follows") == 0)
            #expect(try await server.number("SELECT following_count FROM feeds WHERE fid = 'timeline:alice'") == 0)

            // Bounds: 1 to 1,000 pairs, each a feed id.
            let many = (0...1000).map { #"{"source":"timeline:alice","target":"user:u\#($0)"}"# }.joined(separator: ",")
            expectAPIError(
                try await server.api(.POST, "/feeds/unfollow/batch", as: nil, json: #"{"follows":[\#(many)]}"#), status: 400,
                code: 4)
            expectAPIError(
                try await server.api(.POST, "/feeds/unfollow/batch", as: nil, json: #"{"follows":[]}"#), status: 400, code: 4)
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/unfollow/batch", as: nil, json: #"{"follows":[{"source":"timeline","target":"user:bob"}]}"#),
                status: 400, code: 4, field: "follows[0].source")
        }
    }
}
