import FeedsCore
import FeedsLoadTest
import FeedsTestSupport
import Foundation
import Testing

/// Push through the app's webhooks: a notification that would be pushed goes out as
/// `feeds.push_notification` with the recipient's devices, unless their push settings
/// (UpdatePushNotificationPreferences) turn it off; nobody's sockets get it.
@Suite struct PushNotificationTests {
    func like(_ server: TestServer, _ activity: String, as user: String, type: String = "like") async throws {
        let reply = try await server.api(
            .POST, "/feeds/activities/\(activity)/reactions", as: user,
            json: #"{"type":"\#(type)","create_notification_activity":true}"#)
        #expect(reply.status == 201, "\(reply.text)")
    }

    @Test func aNotificationGoesToTheWebhookWithTheDevicesItIsFor() async throws {
        try await WebhookTests.run { server, receiver in
            try await server.changeApp(WebhookTests.patientHook(receiver))
            let post = try await WebhookTests.post(server, "like me")
            // No device yet: nothing to push.
            try await like(server, post, as: "bob")
            for (id, provider) in [("tok-1", "apn"), ("tok-2", "firebase")] {
                let made = try await server.api(
                    .POST, "/devices", as: "alice", json: #"{"id":"\#(id)","push_provider":"\#(provider)"}"#)
                #expect(made.status == 201, "\(made.text)")
            }
            try await like(server, post, as: "carl")
            try await eventually("the push for carl's like") {
                WebhookTests.events(receiver, type: "feeds.push_notification").count >= 1
                    && !WebhookTests.events(receiver, type: "feeds.notification_feed.updated").isEmpty
            }
            let pushes = WebhookTests.events(receiver, type: "feeds.push_notification")
            #expect(pushes.count == 1, "\(pushes)")
            let push = pushes[0]
            #expect(push["user"]["id"].string == "alice")
            #expect(Set(push["devices"].array.compactMap { $0["id"].string }) == ["tok-1", "tok-2"], "\(push)")
            #expect(push["notification"]["type"].string == "reaction" && push["notification"]["actor"]["id"].string == "carl")
            #expect(push["notification"]["activity_id"].string == post && push["notification"]["feed"].string == "notification:alice")

            // Turned off for reactions: no push; comments still push.
            let set = try await server.api(
                .POST, "/push_preferences", as: "alice", json: #"{"preferences":[{"feeds_preferences":{"reaction":"none"}}]}"#)
            #expect(set.status == 201, "\(set.text)")
            #expect(set.body["user_preferences"]["alice"]["feeds_preferences"]["reaction"].string == "none", "\(set.text)")
            #expect(set.body["user_preferences"]["alice"]["feeds_level"].string == "all")
            try await like(server, post, as: "dana")
            let comment = try await server.api(
                .POST, "/feeds/comments", as: "dana",
                json: #"{"object_id":"\#(post)","object_type":"activity","comment":"hi","create_notification_activity":true}"#)
            #expect(comment.status == 201, "\(comment.text)")
            try await eventually("the push for dana's comment") {
                WebhookTests.events(receiver, type: "feeds.push_notification").count >= 2
            }
            let types = WebhookTests.events(receiver, type: "feeds.push_notification").map { $0["notification"]["type"].string }
            #expect(types == ["reaction", "comment"], "\(types)")

            // Paused: nothing; the pause removed: pushes again.
            let paused = try await server.api(
                .POST, "/push_preferences", as: nil,
                json: #"{"preferences":[{"user_id":"alice","disabled_until":"2099-01-01T00:00:00+00:00","feeds_preferences":{"reaction":"all"}}]}"#)
            #expect(paused.status == 201 && paused.body["user_preferences"]["alice"]["disabled_until"].int != nil, "\(paused.text)")
            try await like(server, post, as: "erik")
            #expect(
                try await server.api(
                    .POST, "/push_preferences", as: nil, json: #"{"preferences":[{"user_id":"alice","remove_disable":true}]}"#
                ).status == 201)
            try await like(server, post, as: "fay")
            try await eventually("the push for fay's like") {
                WebhookTests.events(receiver, type: "feeds.push_notification").count >= 3
            }
            let actors = WebhookTests.events(receiver, type: "feeds.push_notification").map {
                $0["notification"]["actor"]["id"].string ?? ""
            }
            #expect(actors == ["carl", "dana", "fay"], "\(actors)")
        }
    }

    /// A user sets only their own; Chat's settings and bad values are refused with nothing saved.
    @Test func hostilePreferencesAreRefused() async throws {
        try await TestServer.run { server in
            _ = try await server.addActivity(as: "alice")
            for (json, status, field) in [
                (#"{"preferences":[{"user_id":"bob","feeds_level":"none"}]}"#, 403, nil),
                (#"{"preferences":[]}"#, 400, "preferences"),
                (#"{"preferences":[{"feeds_level":"loud"}]}"#, 400, "preferences[0].feeds_level"),
                (#"{"preferences":[{"chat_level":"all"}]}"#, 400, "preferences[0].chat_level"),
                (#"{"preferences":[{"channel_cid":"messaging:x"}]}"#, 400, "preferences[0].channel_cid"),
                (#"{"preferences":[{"feeds_preferences":{"reaction":"some"}}]}"#, 400, "preferences[0].feeds_preferences.reaction"),
                (#"{"preferences":[{"disabled_until":"soon"}]}"#, 400, "preferences[0].disabled_until"),
                (
                    #"{"preferences":[{"feeds_preferences":{"custom_activity_types":{\#((0...50).map { #""t\#($0)":"none""# }.joined(separator: ","))}}}]}"#,
                    400, "preferences[0].feeds_preferences.custom_activity_types"
                ),
                (#"{"preferences":[\#(Array(repeating: #"{"feeds_level":"all"}"#, count: 101).joined(separator: ","))]}"#, 400, "preferences"),
            ] {
                let reply = try await server.api(.POST, "/push_preferences", as: "alice", json: json)
                expectAPIError(reply, status: status, code: status == 403 ? 17 : 4, field: field)
            }
            expectAPIError(
                try await server.api(.POST, "/push_preferences", as: nil, json: #"{"preferences":[{"feeds_level":"none"}]}"#),
                status: 400, code: 4, field: "preferences[0].user_id")
            let rows = try await server.database.query("SELECT count(*)::int FROM push_preferences", logger: TestDatabase.logger)
            for try await n in rows.decode(Int.self) { #expect(n == 0) }
        }
    }
}
