import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// Polls through the real server: a poll made and put on an activity, votes by its readers with
/// exact counts, the settings that shape votes (unique, at most n, answers, anonymous, closed),
/// the watchers told of each vote, and the abuse a client may try.
@Suite struct PollTests {
    /// Makes a poll as `user` with options "a", "b", "c"; returns its id and option ids by text.
    func poll(_ server: TestServer, as user: String = "alice", _ settings: String = "") async throws -> (String, [String: String]) {
        let made = try await server.api(
            .POST, "/polls", as: user,
            json: #"{"name":"Lunch?","options":[{"text":"a"},{"text":"b"},{"text":"c"}]\#(settings.isEmpty ? "" : ",")\#(settings)}"#)
        #expect(made.status == 201, "\(made.text)")
        let id = try #require(made.body["poll"]["id"].string)
        var options: [String: String] = [:]
        for option in made.body["poll"]["options"].array { options[option["text"].string ?? ""] = option["id"].string }
        return (id, options)
    }

    func post(_ server: TestServer, poll: String, as user: String = "alice", extra: String = "") async throws -> String {
        try #require(try await server.addActivity(as: user, text: "vote!", extra: #""poll_id":"\#(poll)""# + extra)["id"].string)
    }

    func vote(_ server: TestServer, _ activity: String, _ poll: String, as user: String?, _ vote: String) async throws
        -> TestServer.Reply
    {
        try await server.api(.POST, "/feeds/activities/\(activity)/polls/\(poll)/vote", as: user, json: #"{"vote":\#(vote)}"#)
    }

    @Test func readersVoteAndEveryReadCarriesThePoll() async throws {
        try await TestServer.run { server in
            let (poll, options) = try await poll(server)
            let activity = try await post(server, poll: poll)
            let (socket, inbox, connection) = try await server.connected("carl")
            try await server.watch("user:alice", as: "carl", connectionID: connection)

            let cast = try await vote(server, activity, poll, as: "bob", #"{"option_id":"\#(options["a"]!)"}"#)
            #expect(cast.status == 201, "\(cast.text)")
            #expect(cast.body["vote"]["option_id"].string == options["a"] && cast.body["vote"]["user_id"].string == "bob")
            #expect(cast.body["poll"]["vote_count"].int == 1 && cast.body["poll"]["own_votes"].array.count == 1)
            let event = try await inbox.event()
            #expect(event["type"].string == "feeds.poll.vote_casted" && event["poll_vote"]["user_id"].string == "bob", "\(event)")
            #expect(event["poll"]["vote_counts_by_option"][options["a"]!].int == 1 && event["poll"]["own_votes"].array.isEmpty)
            let again = try await vote(server, activity, poll, as: "bob", #"{"option_id":"\#(options["a"]!)"}"#)
            #expect(again.body["vote"]["id"] == cast.body["vote"]["id"] && again.body["poll"]["vote_count"].int == 1, "the same vote")

            // The feed page, the activity and QueryActivities carry it, with the reader's own votes.
            let page = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "bob", json: "{}")
            let shown = page.body["activities"][0]["poll"]
            #expect(shown["id"].string == poll && shown["vote_count"].int == 1, "\(page.text)")
            #expect(shown["own_votes"][0]["user_id"].string == "bob" && shown["latest_votes_by_option"][options["a"]!].array.count == 1)
            let read = try await server.api(.GET, "/feeds/activities/\(activity)", as: "carl")
            #expect(read.body["activity"]["poll"]["options"].array.count == 3 && read.body["activity"]["poll"]["own_votes"].array.isEmpty)
            // A reaction's reply reads the activity back on the reaction's own connection: with its poll.
            let liked = try await server.api(.POST, "/feeds/activities/\(activity)/reactions", as: "carl", json: #"{"type":"like"}"#)
            #expect(liked.status == 201 && liked.body["activity"]["poll"]["id"].string == poll, "\(liked.text)")
            #expect(try await inbox.event()["type"].string == "feeds.activity.reaction.added")
            let got = try await server.api(.GET, "/polls/\(poll)", as: "carl")
            #expect(got.status == 200 && got.body["poll"]["created_by_id"].string == "alice", "\(got.text)")

            // A vote taken back, by its voter only.
            let voteID = try #require(cast.body["vote"]["id"].string)
            expectAPIError(
                try await server.api(.DELETE, "/feeds/activities/\(activity)/polls/\(poll)/vote/\(voteID)", as: "carl"), status: 403,
                code: 17)
            let removed = try await server.api(.DELETE, "/feeds/activities/\(activity)/polls/\(poll)/vote/\(voteID)", as: "bob")
            #expect(removed.status == 200 && removed.body["poll"]["vote_count"].int == 0, "\(removed.text)")
            #expect(try await inbox.event()["type"].string == "feeds.poll.vote_removed")

            // Closed: no more votes; the watchers hear it.
            let closed = try await server.api(.PATCH, "/polls/\(poll)", as: "alice", json: #"{"set":{"is_closed":true}}"#)
            #expect(closed.status == 200 && closed.body["poll"]["is_closed"] == .bool(true), "\(closed.text)")
            #expect(try await inbox.event()["type"].string == "feeds.poll.updated")
            #expect(try await inbox.event()["type"].string == "feeds.poll.closed")
            expectAPIError(
                try await vote(server, activity, poll, as: "bob", #"{"option_id":"\#(options["b"]!)"}"#), status: 400, code: 4,
                field: "poll_id")
            try await socket.hangUp()
        }
    }

    /// An activity posted with a poll and an Idempotency-Key answers with its poll, and a retry
    /// gets the very same reply.
    @Test func anIdempotentPostWithAPollCarriesItOnEveryReply() async throws {
        try await TestServer.run { server in
            let (poll, _) = try await poll(server)
            let body = #"{"type":"post","feeds":["user:alice"],"text":"vote!","poll_id":"\#(poll)"}"#
            let key = [("Idempotency-Key", "post-with-poll-1")]
            let first = try await server.api(.POST, "/feeds/activities", as: "alice", json: body, headers: key)
            #expect(first.status == 201 && first.body["activity"]["poll"]["id"].string == poll, "\(first.text)")
            let retry = try await server.api(.POST, "/feeds/activities", as: "alice", json: body, headers: key)
            #expect(retry.status == 201 && retry.text == first.text, "\(retry.text)")
        }
    }

    @Test func settingsShapeTheVotes() async throws {
        try await TestServer.run { server in
            // Unique: a second vote moves the first.
            let (unique, u) = try await poll(server, #""enforce_unique_vote":true"#)
            let onUnique = try await post(server, poll: unique)
            let first = try await vote(server, onUnique, unique, as: "bob", #"{"option_id":"\#(u["a"]!)"}"#)
            let moved = try await vote(server, onUnique, unique, as: "bob", #"{"option_id":"\#(u["b"]!)"}"#)
            #expect(moved.body["vote"]["id"] == first.body["vote"]["id"] && moved.body["vote"]["option_id"].string == u["b"])
            #expect(moved.body["poll"]["vote_counts_by_option"][u["a"]!].int == 0 && moved.body["poll"]["vote_count"].int == 1)

            // At most two: the third moves the oldest.
            let (two, t) = try await poll(server, #""max_votes_allowed":2"#)
            let onTwo = try await post(server, poll: two)
            for text in ["a", "b", "c"] { _ = try await vote(server, onTwo, two, as: "bob", #"{"option_id":"\#(t[text]!)"}"#) }
            let counts = try await server.api(.GET, "/polls/\(two)", as: "bob").body["poll"]
            #expect(counts["vote_count"].int == 2 && counts["vote_counts_by_option"][t["a"]!].int == 0, "\(counts)")
            #expect(Set(counts["own_votes"].array.compactMap { $0["option_id"].string }) == [t["b"]!, t["c"]!])

            // Answers: only where allowed, one a voter.
            expectAPIError(try await vote(server, onTwo, two, as: "bob", #"{"answer_text":"pizza"}"#), status: 400, code: 4)
            let (open, _) = try await poll(server, #""allow_answers":true"#)
            let onOpen = try await post(server, poll: open)
            let answer = try await vote(server, onOpen, open, as: "bob", #"{"answer_text":"pizza"}"#)
            #expect(answer.status == 201 && answer.body["vote"]["is_answer"] == .bool(true) && answer.body["vote"]["option_id"].string == "")
            let changed = try await vote(server, onOpen, open, as: "bob", #"{"answer_text":"soup"}"#)
            #expect(changed.body["poll"]["answers_count"].int == 1 && changed.body["poll"]["latest_answers"][0]["answer_text"].string == "soup")

            // Anonymous: others see the count, not the voter; the voter and the server see them.
            let (secret, s) = try await poll(server, #""voting_visibility":"anonymous""#)
            let onSecret = try await post(server, poll: secret)
            _ = try await vote(server, onSecret, secret, as: "bob", #"{"option_id":"\#(s["a"]!)"}"#)
            let seenByCarl = try await server.api(.GET, "/polls/\(secret)", as: "carl").body["poll"]
            #expect(seenByCarl["vote_count"].int == 1 && seenByCarl["latest_votes_by_option"][s["a"]!][0]["user_id"] == .null)
            let votesByCarl = try await server.api(.POST, "/polls/\(secret)/votes", as: "carl", json: "{}")
            #expect(votesByCarl.body["votes"][0]["user"] == .null && votesByCarl.body["votes"].array.count == 1, "\(votesByCarl.text)")
            expectAPIError(
                try await server.api(.POST, "/polls/\(secret)/votes", as: "carl", json: #"{"filter":{"user_id":"bob"}}"#), status: 400,
                code: 4, field: "filter.user_id")
            let byServer = try await server.api(.POST, "/polls/\(secret)/votes", as: nil, json: #"{"filter":{"user_id":"bob"}}"#)
            #expect(byServer.body["votes"][0]["user_id"].string == "bob", "\(byServer.text)")
            #expect(try await server.api(.GET, "/polls/\(secret)", as: "bob").body["poll"]["own_votes"][0]["user_id"].string == "bob")
        }
    }

    @Test func sixtyFourVotersAtOnceAreCountedExactly() async throws {
        try await TestServer.run { server in
            let (poll, options) = try await poll(server, #""max_votes_allowed":2"#)
            let activity = try await post(server, poll: poll)
            let ids = ["a", "b", "c"].compactMap { options[$0] }
            try await hangGuard("192 votes at once", seconds: 600) {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for voter in 0..<64 {
                        for option in ids {
                            group.addTask {
                                try await vote(server, activity, poll, as: "voter-\(voter)", #"{"option_id":"\#(option)"}"#).status
                            }
                        }
                    }
                    for try await status in group { #expect(status == 201) }
                }
            }
            // Each voter has two votes: 128 in all, as counted and as stored.
            let read = try await server.api(.GET, "/polls/\(poll)", as: nil).body["poll"]
            #expect(read["vote_count"].int == 128, "\(read)")
            let byOption = ids.compactMap { read["vote_counts_by_option"][$0].int }.reduce(0, +)
            #expect(byOption == 128)
            #expect(try await server.number("SELECT count(*) FROM poll_votes") == 128)
            #expect(
                try await server.number(
                    "SELECT count(*) FROM poll_options o WHERE vote_count <> (SELECT count(*) FROM poll_votes v WHERE v.poll_id = o.poll_id AND v.option_id = o.id)")
                    == 0)
        }
    }

    @Test func strangersMayNotReadOrChangeAnothersPoll() async throws {
        try await TestServer.run { server in
            let (poll, options) = try await poll(server)
            // Not on an activity yet: only its maker (and the server) reads it.
            expectAPIError(try await server.api(.GET, "/polls/\(poll)", as: "bob"), status: 404, code: 16)
            #expect(try await server.api(.GET, "/polls/\(poll)", as: nil).status == 200)
            expectAPIError(try await server.api(.PATCH, "/polls/\(poll)", as: "bob", json: #"{"set":{"name":"mine"}}"#), status: 403, code: 17)
            expectAPIError(try await server.api(.DELETE, "/polls/\(poll)", as: "bob"), status: 403, code: 17)
            expectAPIError(
                try await server.api(.POST, "/polls/\(poll)/options", as: "bob", json: #"{"text":"d"}"#), status: 404, code: 16)
            // bob may not put alice's poll on his activity.
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/activities", as: "bob",
                    json: #"{"type":"post","feeds":["user:bob"],"text":"x","poll_id":"\#(poll)"}"#), status: 403, code: 17)
            expectAPIError(
                try await server.api(
                    .POST, "/feeds/activities", as: "bob", json: #"{"type":"post","feeds":["user:bob"],"text":"x","poll_id":"nope"}"#),
                status: 400, code: 4, field: "poll_id")

            // On a private activity: strangers cannot read or vote; voting needs the activity that carries it.
            let secret = try await post(server, poll: poll, extra: #","visibility":"private""#)
            expectAPIError(try await server.api(.GET, "/polls/\(poll)", as: "bob"), status: 404, code: 16)
            expectAPIError(try await vote(server, secret, poll, as: "bob", #"{"option_id":"\#(options["a"]!)"}"#), status: 404, code: 16)
            let other = try #require(try await server.addActivity(as: "bob", text: "no poll")["id"].string)
            expectAPIError(try await vote(server, other, poll, as: "bob", #"{"option_id":"\#(options["a"]!)"}"#), status: 404, code: 16)
            #expect(try await server.api(.POST, "/polls/query", as: "bob", json: #"{"filter":{"id":"\#(poll)"}}"#).body["polls"].array.isEmpty)
            #expect(try await server.api(.POST, "/polls/query", as: "alice", json: "{}").body["polls"].array.count == 1)
        }
    }

    @Test func badInputIsRefusedAndNothingWritten() async throws {
        try await TestServer.run { server in
            let (poll, options) = try await poll(server)
            let activity = try await post(server, poll: poll)
            for (json, field) in [
                (#"{"name":""}"#, "name"), (#"{"name":"\#(String(repeating: "x", count: 256))"}"#, "name"),
                (#"{"name":"x","max_votes_allowed":11}"#, "max_votes_allowed"),
                (#"{"name":"x","options":[{"text":"a"},{"text":"a"}]}"#, "options"),
                (#"{"name":"x","options":[{"text":""}]}"#, "options[0].text"),
                (#"{"name":"x","voting_visibility":"secret"}"#, nil),
                (#"{"name":"x","options":[\#(Array(repeating: #"{"text":"o"}"#, count: 1).joined())\#((1...100).map { #",{"text":"o\#($0)"}"# }.joined())]}"#, nil),
                (#"{"name":"x","id":"\#(poll)"}"#, "id"),
            ] {
                let reply = try await server.api(.POST, "/polls", as: "alice", json: json)
                #expect([400, 409].contains(reply.status), "\(json.prefix(80)): \(reply.text)")
                if let field { #expect(reply.body["exception_fields"][field].string != nil || reply.status == 409, "\(reply.text)") }
            }
            #expect(try await server.number("SELECT count(*) FROM polls") == 1)
            for vote in [#"{}"#, #"{"option_id":"x","answer_text":"y"}"#, #"{"answer_text":"\#(String(repeating: "y", count: 1001))"}"#] {
                let reply = try await self.vote(server, activity, poll, as: "bob", vote)
                #expect(reply.status == 400, "\(vote): \(reply.text)")
            }
            expectAPIError(try await self.vote(server, activity, poll, as: "bob", #"{"option_id":"nope"}"#), status: 404, code: 16)
            expectAPIError(
                try await server.api(.PATCH, "/polls/\(poll)", as: "alice", json: #"{"set":{"vote_count":1000}}"#), status: 400, code: 4)
            expectAPIError(
                try await server.api(.PATCH, "/polls/\(poll)", as: "alice", json: #"{"set":{"max_votes_allowed":"many"}}"#), status: 400,
                code: 4)
            expectAPIError(
                try await server.api(.POST, "/polls/\(poll)/votes", as: "alice", json: #"{"filter":{"answer_text":"x"}}"#), status: 400,
                code: 4)
            #expect(try await server.number("SELECT count(*) FROM poll_votes") == 0)
            #expect(options.count == 3)
        }
    }

    @Test func optionsChangeAndThePollGoesWithItsVotes() async throws {
        try await TestServer.run { server in
            let (poll, options) = try await poll(server, #""allow_user_suggested_options":true"#)
            let activity = try await post(server, poll: poll)
            _ = try await vote(server, activity, poll, as: "bob", #"{"option_id":"\#(options["c"]!)"}"#)
            let suggested = try await server.api(.POST, "/polls/\(poll)/options", as: "bob", json: #"{"text":"d"}"#)
            #expect(suggested.status == 201 && suggested.body["poll_option"]["text"].string == "d", "\(suggested.text)")
            expectAPIError(try await server.api(.POST, "/polls/\(poll)/options", as: "bob", json: #"{"text":"d"}"#), status: 400, code: 4)
            let renamed = try await server.api(
                .PUT, "/polls/\(poll)/options", as: "alice", json: #"{"id":"\#(options["a"]!)","text":"A"}"#)
            #expect(renamed.status == 201 && renamed.body["poll_option"]["text"].string == "A", "\(renamed.text)")
            let got = try await server.api(.GET, "/polls/\(poll)/options/\(options["a"]!)", as: "bob")
            #expect(got.body["poll_option"]["text"].string == "A")
            // UpdatePoll keeps a and b (swapping their texts), drops c with its vote, adds e.
            let replaced = try await server.api(
                .PUT, "/polls", as: "alice",
                json: #"{"id":"\#(poll)","name":"Dinner?","options":[{"id":"\#(options["b"]!)","text":"A"},{"id":"\#(options["a"]!)","text":"b"},{"id":"e","text":"e"}]}"#)
            #expect(replaced.status == 201, "\(replaced.text)")
            #expect(replaced.body["poll"]["options"].array.compactMap { $0["text"].string } == ["A", "b", "e"])
            #expect(replaced.body["poll"]["vote_count"].int == 0 && replaced.body["poll"]["name"].string == "Dinner?")
            // Deleted: off the activity, with its votes.
            #expect(try await server.api(.DELETE, "/polls/\(poll)", as: "alice").status == 200)
            let read = try await server.api(.GET, "/feeds/activities/\(activity)", as: "alice")
            #expect(read.body["activity"]["poll"] == .null, "\(read.text)")
            #expect(try await server.number("SELECT count(*) FROM poll_votes") + server.number("SELECT count(*) FROM poll_options") == 0)
        }
    }
}
