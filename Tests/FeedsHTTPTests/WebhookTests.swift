import Crypto
import FeedsCore
import FeedsLoadTest
import FeedsPostgres
import FeedsServer
import FeedsTestSupport
import Foundation
import Testing

/// Webhooks: UpdateApp's `webhook_url`, `webhook_events` and `event_hooks`; every event signed
/// as Stream signs it, in order per feed, through the outbox; receivers that fail, hang, go down
/// or answer without end lose nothing. No assertion is on time: each wait is a hang guard.
@Suite struct WebhookTests {
    /// A server whose webhooks may point at loopback, retrying fast.
    static func run(
        retryFor: Duration = .seconds(86_400), _ body: @Sendable (TestServer, WebhookReceiver) async throws -> Void
    ) async throws {
        let receiver = try await WebhookReceiver()
        defer { Task { await receiver.stop() } }
        try await TestServer.run(configure: { configuration in
            configuration.webhookHosts = ["127.0.0.1"]
            configuration.webhookDelivery.maxBackoff = .seconds(1)
            configuration.webhookDelivery.retryFor = retryFor
        }) { server in
            try await body(server, receiver)
        }
    }

    /// The receiver as a hook with the longest timeout: on a busy machine an attempt that takes
    /// over the default 5 s would be sent again, and these tests count each event once.
    static func patientHook(_ receiver: WebhookReceiver) -> String {
        #"{"event_hooks":[{"webhook_url":"\#(receiver.url)","timeout_ms":30000}]}"#
    }

    static func post(_ server: TestServer, _ text: String, feed: String = "user:alice", as user: String = "alice")
        async throws -> String
    {
        let reply = try await server.api(
            .POST, "/feeds/activities", as: user, json: #"{"type":"post","feeds":["\#(feed)"],"text":"\#(text)"}"#)
        #expect(reply.status == 201, "\(reply.text)")
        return try #require(reply.body["activity"]["id"].string)
    }

    /// The bodies delivered with 2xx of `type`, parsed, one per webhook id.
    static func events(_ receiver: WebhookReceiver, type: String? = nil) -> [JSONValue] {
        var seen = Set<String>()
        return receiver.deliveries.compactMap { delivery in
            guard seen.insert(delivery.webhookID).inserted,
                let json = try? JSONDecoder().decode(JSONValue.self, from: Data(delivery.body))
            else { return nil }
            return type == nil || json["type"].string == type ? json : nil
        }
    }

    @Test func updateAppSetsWebhooksAndOnlyTheServerSeesThem() async throws {
        try await Self.run { server, receiver in
            try await server.changeApp(
                #"{"webhook_url":"\#(receiver.url)","webhook_events":["feeds.activity.added"],"event_hooks":[{"hook_type":"webhook","webhook_url":"\#(receiver.url)?second","event_types":[],"timeout_ms":2000}]}"#
            )
            let app = try await server.api(.GET, "/app", as: nil).body["app"]
            #expect(app["webhook_url"].string == receiver.url)
            #expect(app["webhook_events"].array.compactMap(\.string) == ["feeds.activity.added"])
            let hook = app["event_hooks"][0]
            #expect(hook["webhook_url"].string == "\(receiver.url)?second")
            #expect(hook["hook_type"].string == "webhook")
            #expect(hook["timeout_ms"].int == 2000)
            #expect(hook["enabled"].bool == true)
            #expect(hook["created_at"].time != nil && hook["updated_at"].time != nil, "times in nanoseconds: \(hook)")
            let id = try #require(hook["id"].string)

            // A user reads the upload rules, not where the app's events go.
            let seen = try await server.api(.GET, "/app", as: "alice").body["app"]
            #expect(seen["webhook_url"].string == "")
            #expect(seen["event_hooks"].array.isEmpty)

            // Sent again with its id, a hook keeps it; turned off, it stays listed.
            try await server.changeApp(#"{"event_hooks":[{"id":"\#(id)","webhook_url":"\#(receiver.url)","enabled":false}]}"#)
            let again = try await server.api(.GET, "/app", as: nil).body["app"]["event_hooks"][0]
            #expect(again["id"].string == id)
            #expect(again["enabled"].bool == false)

            // A user may not change them; "" takes webhook_url away.
            #expect(try await server.api(.PATCH, "/app", as: "alice", json: #"{"webhook_url":""}"#).status == 403)
            try await server.changeApp(#"{"webhook_url":"","event_hooks":[]}"#)
            let cleared = try await server.api(.GET, "/app", as: nil).body["app"]
            #expect(cleared["webhook_url"].string == "")
            #expect(cleared["event_hooks"].array.isEmpty)
        }
    }

    @Test func hostileHookSettingsAreRefusedAndNothingIsSaved() async throws {
        // No allowed hosts here: loopback and the cloud's metadata address are refused.
        try await TestServer.run { server in
            let long = "https://example.com/" + String(repeating: "a", count: 3000)
            let hooks = (0...10).map { _ in #"{"webhook_url":"https://example.com/"}"# }.joined(separator: ",")
            let cases: [(String, String)] = [
                (#"{"webhook_url":"http://127.0.0.1:9/hook"}"#, "webhook_url"),
                (#"{"webhook_url":"http://169.254.169.254/latest/meta-data"}"#, "webhook_url"),
                (#"{"webhook_url":"http://[::1]/hook"}"#, "webhook_url"),
                (#"{"webhook_url":"http://localhost/hook"}"#, "webhook_url"),
                (#"{"webhook_url":"ftp://example.com/hook"}"#, "webhook_url"),
                (#"{"webhook_url":"https://user:secret@example.com/hook"}"#, "webhook_url"),
                (#"{"webhook_url":"\#(long)"}"#, "webhook_url"),
                (#"{"webhook_url":"no url at all"}"#, "webhook_url"),
                (#"{"webhook_events":["feeds.activity.added","DROP TABLE users;"]}"#, "webhook_events"),
                (#"{"event_hooks":[{"webhook_url":"http://10.0.0.1/hook"}]}"#, "event_hooks[0].webhook_url"),
                (#"{"event_hooks":[{"hook_type":"sqs","webhook_url":"https://example.com/"}]}"#, "event_hooks[0].hook_type"),
                (#"{"event_hooks":[{"hook_type":"webhook"}]}"#, "event_hooks[0].webhook_url"),
                (#"{"event_hooks":[{"webhook_url":"https://example.com/","timeout_ms":100000000}]}"#, "event_hooks[0].timeout_ms"),
                (#"{"event_hooks":[{"webhook_url":"https://example.com/","timeout_ms":-1}]}"#, "event_hooks[0].timeout_ms"),
                (#"{"event_hooks":[\#(hooks)]}"#, "event_hooks"),
                (
                    #"{"event_hooks":[{"id":"a","webhook_url":"https://example.com/"},{"id":"a","webhook_url":"https://example.com/"}]}"#,
                    "event_hooks[1].id"
                ),
                (#"{"event_hooks":[{"id":"webhook_url","webhook_url":"https://example.com/"}]}"#, "event_hooks[0].id"),
            ]
            for (body, field) in cases {
                let reply = try await server.api(.PATCH, "/app", as: nil, json: body)
                #expect(reply.status == 400, "\(body.prefix(120)): \(reply.status) \(reply.text)")
                #expect(reply.body["code"].int == 4, "\(body.prefix(120)): \(reply.text)")
                #expect(reply.body["exception_fields"][field].string != nil, "\(body.prefix(120)) should name \(field): \(reply.text)")
            }
            let app = try await server.api(.GET, "/app", as: nil).body["app"]
            #expect(app["webhook_url"].string == "")
            #expect(app["webhook_events"].array.isEmpty)
            #expect(app["event_hooks"].array.isEmpty)
        }
    }

    @Test func everyEventReachesTheHookSignedAndInOrderPerFeed() async throws {
        try await Self.run { server, receiver in
            try await server.changeApp(Self.patientHook(receiver))
            var posted: [String] = []
            for index in 0..<20 { posted.append(try await Self.post(server, "post \(index)")) }
            let other = try await Self.post(server, "elsewhere", feed: "user:bob", as: "bob")
            let reaction = try await server.api(
                .POST, "/feeds/activities/\(posted[0])/reactions", as: "bob", json: #"{"type":"like"}"#)
            #expect(reaction.status == 201, "\(reaction.text)")
            let comment = try await server.api(
                .POST, "/feeds/comments", as: "bob", json: #"{"object_id":"\#(posted[0])","object_type":"activity","comment":"hi"}"#)
            #expect(comment.status == 201, "\(comment.text)")

            try await eventually("the comment's event delivered") {
                Self.events(receiver, type: "feeds.comment.added").count == 1
            }
            // Alice's feed's events arrive in the order they happened.
            let added = Self.events(receiver, type: "feeds.activity.added")
            let alices = added.filter { $0["fid"].string == "user:alice" }.compactMap { $0["activity"]["id"].string }
            #expect(alices == posted)
            try await eventually("bob's post delivered") {
                Self.events(receiver, type: "feeds.activity.added").contains { $0["activity"]["id"].string == other }
            }
            let types = Self.events(receiver).compactMap { $0["type"].string }
            #expect(types.contains("feeds.activity.reaction.added"))
            let order = Self.events(receiver).filter { $0["fid"].string == "user:alice" }.compactMap { $0["type"].string }
            #expect(
                order.firstIndex(of: "feeds.activity.reaction.added")! < order.firstIndex(of: "feeds.comment.added")!,
                "\(order)")

            // Signed with the API secret, one id per event, the API key and the attempt named.
            let deliveries = receiver.deliveries
            for delivery in deliveries {
                let mac = HMAC<SHA256>.authenticationCode(
                    for: delivery.body, using: SymmetricKey(data: Array(TestServer.apiSecret.utf8)))
                #expect(delivery.signature == mac.map { String(format: "%02x", $0) }.joined())
                #expect(delivery.apiKey == TestServer.apiKey)
                #expect(delivery.attempt == 1)
                #expect(UUID(uuidString: delivery.webhookID) != nil)
            }
            #expect(Set(deliveries.map(\.webhookID)).count == deliveries.count, "an event delivered twice")
            // Delivered rows leave the outbox.
            try await eventually("the outbox empty") {
                try await PostgresWebhookOutbox(client: server.database).summary(logger: TestDatabase.logger).pending == 0
            }
        }
    }

    @Test func webhookEventsAndEventTypesChooseWhatIsSent() async throws {
        try await Self.run { server, receiver in
            try await server.changeApp(
                #"{"webhook_url":"\#(receiver.url)","webhook_events":["feeds.activity.added"],"event_hooks":[{"webhook_url":"\#(receiver.url)","event_types":["feeds.activity.reaction.added"]}]}"#
            )
            let first = try await Self.post(server, "first")
            #expect(
                try await server.api(.POST, "/feeds/activities/\(first)/reactions", as: "bob", json: #"{"type":"like"}"#).status == 201)
            #expect(try await server.api(.POST, "/feeds/activities/\(first)/bookmarks", as: "alice", json: "{}").status == 201)
            let last = try await Self.post(server, "last")
            // The feed's events keep their order per hook: once the last post and the reaction are
            // in, anything else of the feed would have come before them.
            try await eventually("the last post and the reaction delivered") {
                Self.events(receiver).contains { $0["activity"]["id"].string == last }
                    && Self.events(receiver, type: "feeds.activity.reaction.added").count == 1
            }
            let types = Self.events(receiver).compactMap { $0["type"].string }
            #expect(types.filter { $0 == "feeds.activity.added" }.count == 2, "\(types)")
            #expect(!types.contains("feeds.bookmark.added"), "\(types)")
        }
    }

    @Test func aReceiverThatFailsHangsOrGoesDownLosesNothing() async throws {
        try await Self.run { server, receiver in
            try await server.changeApp(
                #"{"event_hooks":[{"webhook_url":"\#(receiver.url)","timeout_ms":500}]}"#)
            // 500s: retried, in order.
            receiver.answer(.status(500))
            var posted = [try await Self.post(server, "during 500s")]
            try await eventually("three attempts answered 500") { receiver.deliveries.count >= 3 }
            // No answer at all: retried after the hook's timeout.
            receiver.answer(.hang)
            posted.append(try await Self.post(server, "while it hangs"))
            let count = receiver.deliveries.count
            try await eventually("an attempt left hanging") { receiver.deliveries.count > count }
            // Down: nothing listens on its port.
            await receiver.stop()
            posted.append(try await Self.post(server, "while it is down"))
            try await eventually("a failed attempt recorded") {
                try await PostgresWebhookOutbox(client: server.database).summary(logger: TestDatabase.logger).retrying != nil
            }
            receiver.answer(.status(200))
            // Its port may be held a moment (a retry's connection that met no listener): tried until it binds.
            try await eventually("the receiver listening again", every: .milliseconds(200)) {
                (try? await receiver.start()) != nil
            }
            try await eventually("every post delivered once it answers") {
                Self.delivered(receiver, type: "feeds.activity.added").count == 3
            }
            #expect(Self.delivered(receiver, type: "feeds.activity.added") == posted)
            #expect(receiver.deliveries.map(\.attempt).max()! > 2)
            // Every attempt of an event carries its one id.
            let attempts = Dictionary(grouping: receiver.deliveries, by: \.webhookID)
            #expect(attempts.count == 3)
        }
    }

    /// The activity ids of `type` events the receiver answered 200 for, in arrival order.
    static func delivered(_ receiver: WebhookReceiver, type: String) -> [String] {
        var seen = Set<String>()
        return receiver.deliveries.filter(\.answered).compactMap { delivery in
            guard let json = try? JSONDecoder().decode(JSONValue.self, from: Data(delivery.body)), json["type"].string == type,
                let id = json["activity"]["id"].string, seen.insert(id).inserted
            else { return nil }
            return id
        }
    }

    @Test func aReceiverAnsweringWithoutEndIsReadNoFurther() async throws {
        try await Self.run { server, receiver in
            try await server.changeApp(Self.patientHook(receiver))
            receiver.answer(.endless)
            _ = try await Self.post(server, "one")
            let second = try await Self.post(server, "two")
            // A 200 whose body never ends counts as delivered once the head is in: the next event follows.
            try await eventually("the second post delivered") {
                Self.events(receiver, type: "feeds.activity.added").contains { $0["activity"]["id"].string == second }
            }
            #expect(Set(receiver.deliveries.map(\.webhookID)).count == receiver.deliveries.count)
        }
    }

    @Test func aRefusedOrExpiredEventIsFailedAndCanBeRetried() async throws {
        try await Self.run(retryFor: .seconds(1)) { server, receiver in
            try await server.changeApp(#"{"webhook_url":"\#(receiver.url)"}"#)
            let outbox = PostgresWebhookOutbox(client: server.database)
            // 400: the receiver does not want it; failed at once, the feed goes on.
            receiver.answer(.status(400))
            _ = try await Self.post(server, "refused")
            try await eventually("the refusal recorded") { try await outbox.summary(logger: TestDatabase.logger).failed == 1 }
            // 503 past the retry window: failed too.
            receiver.answer(.status(503))
            _ = try await Self.post(server, "expired")
            try await eventually("the expired one failed") { try await outbox.summary(logger: TestDatabase.logger).failed == 2 }
            let failed = try await outbox.failed(limit: 10, logger: TestDatabase.logger)
            #expect(failed.map(\.eventType) == ["feeds.activity.added", "feeds.activity.added"])
            #expect(failed.contains { $0.error.contains("503") } && failed.contains { $0.error.contains("400") }, "\(failed)")

            receiver.answer(.status(200))
            #expect(try await outbox.retry(nil, logger: TestDatabase.logger) == 2)
            try await eventually("both delivered after the retry") {
                Self.delivered(receiver, type: "feeds.activity.added").count == 2
            }
            try await eventually("the outbox empty") {
                let summary = try await outbox.summary(logger: TestDatabase.logger)
                return summary.pending == 0 && summary.failed == 0
            }
        }
    }

    @Test func twoNodesDeliverEveryEventOnce() async throws {
        try await Self.run { server, receiver in
            try await server.changeApp(Self.patientHook(receiver))
            let other = try await FeedsNode(
                databaseURL: server.databaseURL, apiKey: TestServer.apiKey, apiSecret: TestServer.apiSecret,
                port: try freeLoopbackPort(), environment: ["FEEDS_WEBHOOK_ALLOWED_HOSTS": "127.0.0.1"])
            defer { other.stop() }
            var posted: [String] = []
            for index in 0..<40 {
                let feed = "user:u\(index % 8)"
                if index % 2 == 0 {
                    posted.append(try await Self.post(server, "n\(index)", feed: feed, as: "u\(index % 8)"))
                } else {
                    let reply = try await TestServer.send(
                        .POST, "\(other.baseURL)/api/v2/feeds/activities?api_key=\(TestServer.apiKey)",
                        body: Data(#"{"type":"post","feeds":["\#(feed)"],"text":"n\#(index)","user_id":"carol"}"#.utf8),
                        headers: [
                            ("Authorization", try await server.token(nil)), ("Stream-Auth-Type", "jwt"),
                            ("Content-Type", "application/json"),
                        ])
                    #expect(reply.status == 201, "\(reply.text)")
                    posted.append(try #require(reply.body["activity"]["id"].string))
                }
            }
            let all = Set(posted)
            try await eventually("every post delivered") {
                Set(Self.delivered(receiver, type: "feeds.activity.added")) == all
            }
            let ids = receiver.deliveries.map(\.webhookID)
            #expect(Set(ids).count == ids.count, "an event delivered twice")
        }
    }
}

/// The console's webhooks page: the hooks, what waits, what failed with its error; a retry
/// (one, or all) sends it again; a forged form changes nothing; hostile text is escaped.
@Suite struct AdminWebhooksTests {
    @Test func theConsoleShowsFailedDeliveriesAndRetriesThem() async throws {
        try await WebhookTests.run { server, receiver in
            try await server.changeApp(#"{"event_hooks":[{"id":"<i>hook</i>","webhook_url":"\#(receiver.url)"}]}"#)
            let client = try await AdminClient(server).signedIn()
            let empty = try await client.get("/admin/webhooks")
            #expect(empty.status == 200)
            #expect(empty.text.contains("Nothing waiting") && empty.text.contains("No failed deliveries"), "\(empty.text)")
            #expect(empty.text.contains("&lt;i&gt;hook&lt;/i&gt;") && !empty.text.contains("<i>hook"), "the hook's id escaped")

            receiver.answer(.status(410))
            let first = try await WebhookTests.post(server, "refused")
            _ = try await WebhookTests.post(server, "refused too")
            let outbox = PostgresWebhookOutbox(client: server.database)
            try await eventually("both refused") { try await outbox.summary(logger: TestDatabase.logger).failed == 2 }
            let page = try await client.get("/admin/webhooks")
            #expect(page.text.contains("2 failed"), "\(page.text)")
            #expect(page.text.contains("the receiver answered 410"), "\(page.text)")
            let rows = try await outbox.failed(limit: 10, logger: TestDatabase.logger)
            let csrf = try client.csrf(in: page)

            // A forged form and a hostile id change nothing.
            #expect(try await client.post("/admin/webhooks/retry", [("csrf", "forged")]).status == 403)
            #expect(try await client.post("/admin/webhooks/retry", [("csrf", csrf), ("id", "1; DROP TABLE users")]).status == 400)
            #expect(try await outbox.summary(logger: TestDatabase.logger).failed == 2)

            // One, then all.
            receiver.answer(.status(200))
            let oldest = try #require(rows.last)
            let one = try await client.post("/admin/webhooks/retry", [("csrf", csrf), ("id", String(oldest.id))])
            #expect(one.status == 303 && one.location == "/admin/webhooks?retried=1", "\(one.status) \(one.text)")
            try await eventually("the first delivered") { WebhookTests.delivered(receiver, type: "feeds.activity.added") == [first] }
            let all = try await client.post("/admin/webhooks/retry", [("csrf", csrf)])
            #expect(all.location == "/admin/webhooks?retried=1")
            try await eventually("both delivered") { WebhookTests.delivered(receiver, type: "feeds.activity.added").count == 2 }
            let after = try await client.get("/admin/webhooks")
            #expect(after.text.contains("No failed deliveries"))
        }
    }
}
