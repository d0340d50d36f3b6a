import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// Feed views: their calls (server only), reads through them (selectors, ranking, pages, who may
/// read what), and hostile views, which are refused or rank safely, never a 500.
@Suite struct FeedViewTests {
    /// Reacts `count` times to `activity`, for that many users (by the server, which reads all).
    func like(_ server: TestServer, _ activity: String, times count: Int) async throws {
        for index in 0..<count {
            let reply = try await server.api(
                .POST, "/feeds/activities/\(activity)/reactions", as: nil, json: #"{"type":"like","user_id":"fan\#(index)"}"#)
            #expect(reply.status == 201, "\(reply.text)")
        }
    }

    func read(_ server: TestServer, _ fid: String, view: String, as user: String, next: String? = nil, limit: Int = 25)
        async throws -> TestServer.Reply
    {
        let parts = fid.split(separator: ":")
        let cursor = next.map { #","next":"\#($0)""# } ?? ""
        return try await server.api(
            .POST, "/feeds/feed_groups/\(parts[0])/feeds/\(parts[1])", as: user,
            json: #"{"view":"\#(view)","limit":\#(limit)\#(cursor)}"#)
    }

    @Test func viewsAreServerSideAndKeptAsGiven() async throws {
        try await TestServer.run { server in
            let body = #"""
                {"id":"hot","activity_selectors":[{"type":"popular","cutoff_window":"3d","min_popularity":2}],
                 "ranking":{"type":"expression","score":"decay_linear(time) * popularity ^ 0.5","defaults":{"custom.boost":1},
                            "functions":{"decay_linear":{"origin":"now","scale":"12h","offset":"1h","decay":"0.3"}}}}
                """#
            expectAPIError(try await server.api(.POST, "/feeds/feed_views", as: "alice", json: body), status: 403, code: 17)
            let made = try await server.api(.POST, "/feeds/feed_views", as: nil, json: body)
            #expect(made.status == 201, "\(made.text)")
            let view = made.body["feed_view"]
            #expect(view["id"].string == "hot" && view["activity_selectors"][0]["cutoff_window"].string == "3d")
            #expect(view["activity_selectors"][0]["min_popularity"].int == 2)
            #expect(view["ranking"]["score"].string == "decay_linear(time) * popularity ^ 0.5")
            #expect(view["ranking"]["functions"]["decay_linear"]["scale"].string == "12h", "\(made.text)")
            expectAPIError(try await server.api(.POST, "/feeds/feed_views", as: nil, json: body), status: 409, code: 4)
            let again = try await server.api(
                .POST, "/feeds/feed_views/hot", as: nil, json: #"{"activity_selectors":[{"type":"following"}]}"#)
            #expect(again.status == 200 && again.body["was_created"].bool == false, "\(again.text)")
            #expect(again.body["feed_view"]["activity_selectors"][0]["type"].string == "popular", "returned as it is")
            let listed = try await server.api(.GET, "/feeds/feed_views", as: nil)
            #expect(listed.body["views"]["hot"]["id"].string == "hot", "\(listed.text)")
            let updated = try await server.api(
                .PUT, "/feeds/feed_views/hot", as: nil, json: #"{"activity_selectors":[{"type":"current_feed"}]}"#)
            #expect(updated.body["feed_view"]["activity_selectors"][0]["type"].string == "current_feed", "\(updated.text)")
            #expect(updated.body["feed_view"]["ranking"]["score"].string != nil, "what the update leaves out stays")
            #expect(try await server.api(.DELETE, "/feeds/feed_views/hot", as: nil).status == 200)
            expectAPIError(try await server.api(.GET, "/feeds/feed_views/hot", as: nil), status: 404, code: 16)
            expectAPIError(try await server.api(.DELETE, "/feeds/feed_views/hot", as: nil), status: 404, code: 16)
            try await server.createFeed("user:alice", owner: "alice")
            expectAPIError(try await read(server, "user:alice", view: "hot", as: "alice"), status: 400, code: 4, field: "view")
        }
    }

    @Test func hostileViewsAreRefusedAndNothingIsKept() async throws {
        try await TestServer.run { server in
            let deep = String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000)
            let long = (0..<20_000).map { _ in "1+" }.joined() + "1"
            let nestedScore = String(repeating: "(", count: 100) + "1" + String(repeating: ")", count: 100)
            let wide = (0..<300).map { _ in "1" }.joined(separator: "+")
            let cases: [(String, String)] = [
                (#"{"id":"v","activity_selectors":[{"type":"interest"}]}"#, "activity_selectors[0].type"),
                (#"{"id":"v","activity_selectors":[]}"#, "activity_selectors"),
                (
                    #"{"id":"v","activity_selectors":[{"type":"popular","min_popularity":0}]}"#,
                    "activity_selectors[0].min_popularity"
                ),
                (
                    #"{"id":"v","activity_selectors":[{"type":"popular","cutoff_window":"soon"}]}"#,
                    "activity_selectors[0].cutoff_window"
                ),
                (
                    #"{"id":"v","activity_selectors":[{"type":"popular","cutoff_window":"99999999999y"}]}"#,
                    "activity_selectors[0].cutoff_window"
                ),
                (#"{"id":"v","activity_selectors":[{"type":"query"}]}"#, "activity_selectors[0].filter"),
                (#"{"id":"v","activity_selectors":[{"type":"query","filter":{"text":{"$q":"x"}}}]}"#, "filter.text"),
                (#"{"id":"v","activity_selectors":[{"type":"following"},{"type":"following"}]}"#, "activity_selectors"),
                (#"{"id":"bad id!","activity_selectors":[{"type":"following"}]}"#, "id"),
                (#"{"id":"v","activity_selectors":[{"type":"following"}],"aggregation":{"format":"{{ type }}"}}"#, "aggregation"),
                (
                    #"{"id":"v","activity_selectors":[{"type":"following"}],"ranking":{"type":"interest","score":"1"}}"#,
                    "ranking.type"
                ),
                (#"{"id":"v","activity_selectors":[{"type":"following"}],"ranking":{"type":"expression"}}"#, "ranking.score"),
                (
                    #"{"id":"v","activity_selectors":[{"type":"following"}],"ranking":{"type":"expression","score":"\#(deep)"}}"#,
                    "ranking.score"
                ),
                (
                    #"{"id":"v","activity_selectors":[{"type":"following"}],"ranking":{"type":"expression","score":"\#(long)"}}"#,
                    "ranking.score"
                ),
                (
                    #"{"id":"v","activity_selectors":[{"type":"following"}],"ranking":{"type":"expression","score":"\#(nestedScore)"}}"#,
                    "ranking.score"
                ),
                (
                    #"{"id":"v","activity_selectors":[{"type":"following"}],"ranking":{"type":"expression","score":"\#(wide)"}}"#,
                    "ranking.score"
                ),
                (
                    #"{"id":"v","activity_selectors":[{"type":"following"}],"ranking":{"type":"expression","score":"drop_table(1)"}}"#,
                    "ranking.score"
                ),
                (
                    #"{"id":"v","activity_selectors":[{"type":"following"}],"ranking":{"type":"expression","score":"a.id; DROP TABLE users"}}"#,
                    "ranking.score"
                ),
                (
                    #"{"id":"v","activity_selectors":[{"type":"following"}],"ranking":{"type":"expression","score":"type + 1"}}"#,
                    "ranking.score"
                ),
                (
                    #"{"id":"v","activity_selectors":[{"type":"following"}],"ranking":{"type":"expression","score":"rand()"}}"#,
                    "ranking.score"
                ),
                (
                    #"{"id":"v","activity_selectors":[{"type":"following"}],"ranking":{"type":"expression","score":"1","functions":{"decay_exp":{"decay":"2"}}}}"#,
                    "ranking.functions.decay_exp.decay"
                ),
                (
                    #"{"id":"v","activity_selectors":[{"type":"following"}],"ranking":{"type":"expression","score":"1","defaults":{"x":"high"}}}"#,
                    "ranking.defaults.x"
                ),
            ]
            for (body, field) in cases {
                let reply = try await server.api(.POST, "/feeds/feed_views", as: nil, json: body)
                expectAPIError(reply, status: 400, code: 4, field: field)
            }
            let nested = String(repeating: #"{"$and":["#, count: 5000) + String(repeating: "]}", count: 5000)
            let deepFilter = try await server.api(
                .POST, "/feeds/feed_views", as: nil,
                json: #"{"id":"v","activity_selectors":[{"type":"query","filter":\#(nested)}]}"#)
            #expect(deepFilter.status == 400 || deepFilter.status == 413, "\(deepFilter.status)")
            #expect(try await server.number("SELECT count(*)::int FROM feed_views") == 0)
        }
    }

    @Test func aRankedViewOrdersByItsScorePageByPageAndNeverFails() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice")
            var ids: [String] = []
            for (index, likes) in [3, 0, 5, 1, 4].enumerated() {
                let id = try #require(try await server.addActivity(as: "alice", text: "post \(index)")["id"].string)
                try await like(server, id, times: likes)
                ids.append(id)
            }
            let made = try await server.api(
                .POST, "/feeds/feed_views", as: nil,
                json:
                    #"{"id":"top","activity_selectors":[{"type":"current_feed"}],"ranking":{"type":"expression","score":"reaction_count * 10 + 1"}}"#
            )
            #expect(made.status == 201, "\(made.text)")
            // By reactions, two at a time, the cursor carrying the order on.
            var seen: [String] = []
            var next: String?
            repeat {
                let page = try await read(server, "user:alice", view: "top", as: "bob", next: next, limit: 2)
                #expect(page.status == 201, "\(page.text)")
                seen += page.body["activities"].array.compactMap { $0["id"].string }
                next = page.body["next"].string
            } while next != nil
            #expect(seen == [ids[2], ids[4], ids[0], ids[3], ids[1]])

            // Scores that divide by zero, overflow, take logs of nothing or read what is not
            // there rank as numbers (or as 0), and the read answers.
            for score in [
                "1 / (reaction_count - reaction_count)", "10 ^ 1000 * 10 ^ 1000", "ln(0) + log(-1) + sqrt(-4)",
                "(-8) ^ 0.5", "custom.missing.deep * 3", "reaction_counts.like / 0", "exp(1e300) - exp(1e300)",
                "1e300 * 1e300 / 1e-300", "time % 0", "decay_gauss(time * 1e100)", "tan(1.5707963267948966)",
                "type == \"post\" ? popularity : -popularity", "selector_source == 'current_feed' && !(comment_count > 1)",
            ] {
                let escaped = score.replacingOccurrences(of: "\"", with: "\\\"")
                let update = try await server.api(
                    .PUT, "/feeds/feed_views/top", as: nil, json: #"{"ranking":{"type":"expression","score":"\#(escaped)"}}"#)
                #expect(update.status == 200, "\(score): \(update.text)")
                let page = try await read(server, "user:alice", view: "top", as: "bob")
                #expect(page.status == 201 && page.body["activities"].array.count == 5, "\(score): \(page.text)")
            }
            // A custom value that is text, huge or an object ranks as its default.
            _ = try await server.addActivity(as: "alice", text: "odd", extra: #""custom":{"boost":"high"}"#)
            _ = try await server.addActivity(as: "alice", text: "huge", extra: #""custom":{"boost":1e300}"#)
            let boosted = try await server.api(
                .PUT, "/feeds/feed_views/top", as: nil,
                json: #"{"ranking":{"type":"expression","score":"custom.boost","defaults":{"custom.boost":-1}}}"#)
            #expect(boosted.status == 200, "\(boosted.text)")
            let page = try await read(server, "user:alice", view: "top", as: "bob")
            #expect(page.status == 201 && page.body["activities"][0]["text"].string == "huge", "\(page.text)")
        }
    }

    @Test func selectorsOfferOnlyWhatTheReaderMayRead() async throws {
        try await TestServer.run { server in
            try await server.createFeed("user:alice", owner: "alice")
            try await server.createFeed("user:carol", owner: "carol", visibility: "followers")
            try await server.createFeed("timeline:bob", owner: "bob")
            #expect(try await server.follow("timeline:bob", "user:alice", as: "bob").status == 201)
            let open = try #require(try await server.addActivity(as: "alice", text: "open")["id"].string)
            let closed = try #require(try await server.addActivity(as: "carol", text: "followers only")["id"].string)
            let mine = try #require(try await server.addActivity(as: "bob", feeds: ["timeline:bob"], text: "my own")["id"].string)
            try await like(server, open, times: 2)
            try await like(server, closed, times: 3)
            try await server.waitForFanout()
            let made = try await server.api(
                .POST, "/feeds/feed_views", as: nil,
                json:
                    #"{"id":"mix","activity_selectors":[{"type":"following"},{"type":"popular","min_popularity":2},{"type":"query","filter":{"user_id":"bob"}}]}"#
            )
            #expect(made.status == 201, "\(made.text)")
            // bob: alice's post (followed, and popular: once), his own (the query), never carol's.
            let page = try await read(server, "timeline:bob", view: "mix", as: "bob")
            #expect(page.body["activities"].array.compactMap { $0["id"].string } == [mine, open], "\(page.text)")
            // carol reads her own popular post; mallory may not read bob's timeline at all.
            let carols = try await read(server, "timeline:bob", view: "mix", as: "carol")
            expectAPIError(carols, status: 403, code: 17)
            try await server.createFeed("timeline:carol", owner: "carol")
            let hers = try await read(server, "timeline:carol", view: "mix", as: "carol")
            #expect(Set(hers.body["activities"].array.compactMap { $0["id"].string }) == [open, closed], "\(hers.text)")
            // Newest first, paged one at a time.
            let first = try await read(server, "timeline:carol", view: "mix", as: "carol", limit: 1)
            let cursor = try #require(first.body["next"].string)
            let second = try await read(server, "timeline:carol", view: "mix", as: "carol", next: cursor, limit: 1)
            #expect(
                first.body["activities"].array.compactMap { $0["id"].string }
                    + second.body["activities"].array.compactMap { $0["id"].string }
                    == [closed, open])
            #expect(second.body["next"].string == nil, "\(second.text)")
        }
    }

    /// A group's selectors and ranking are a view every read of its feeds goes through.
    @Test func aRankedGroupReadsItsFeedsThroughItsRanking() async throws {
        try await TestServer.run { server in
            let made = try await server.api(
                .POST, "/feeds/feed_groups", as: nil,
                json: #"{"id":"hot","ranking":{"type":"expression","score":"reaction_count"}}"#)
            #expect(made.status == 201, "\(made.text)")
            #expect(made.body["feed_group"]["ranking"]["score"].string == "reaction_count", "\(made.text)")
            try await server.createFeed("hot:x", owner: "alice")
            var ids: [String] = []
            for likes in [1, 3, 0, 2] {
                let id = try #require(try await server.addActivity(as: "alice", feeds: ["hot:x"], text: "\(likes)")["id"].string)
                try await like(server, id, times: likes)
                ids.append(id)
            }
            let page = try await server.api(.POST, "/feeds/feed_groups/hot/feeds/x", as: "bob", json: "{}")
            #expect(
                page.body["activities"].array.compactMap { $0["id"].string } == [ids[1], ids[3], ids[0], ids[2]], "\(page.text)")
            // The group as it reads back, and a change of its score.
            let changed = try await server.api(
                .PUT, "/feeds/feed_groups/hot", as: nil, json: #"{"ranking":{"type":"expression","score":"-reaction_count"}}"#)
            #expect(changed.status == 200, "\(changed.text)")
            let again = try await server.api(.POST, "/feeds/feed_groups/hot/feeds/x", as: "bob", json: "{}")
            #expect(
                again.body["activities"].array.compactMap { $0["id"].string } == [ids[2], ids[0], ids[3], ids[1]], "\(again.text)"
            )
            // A plain group reads newest first, as before.
            try await server.createFeed("user:alice", owner: "alice")
            let plain = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "bob", json: "{}")
            #expect(plain.status == 201 && plain.body["activities"].array.isEmpty, "\(plain.text)")
        }
    }
}
