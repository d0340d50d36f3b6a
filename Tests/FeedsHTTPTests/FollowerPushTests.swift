import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// A new activity is pushed, through the app's webhooks, to the followers who asked for it
/// (`push_preference` `all`), who may read it and have a device, as their push settings allow;
/// never to its author, to a user blocked either way, or when the post says `skip_push`.
@Suite struct FollowerPushTests {
    @Test func aNewActivityIsPushedToTheFollowersWhoAskedForIt() async throws {
        try await WebhookTests.run { server, receiver in
            try await server.changeApp(WebhookTests.patientHook(receiver))
            try await server.createFeed("user:alice", owner: "alice")
            // bob asks, with a device; carl asks without one; dana has a device but did not ask;
            // erin asks but turned posts off; fay asks, then alice blocks her; alice follows herself.
            for (user, push, device) in [
                ("bob", "all", true), ("carl", "all", false), ("dana", "none", true), ("erin", "all", true),
                ("fay", "all", true), ("alice", "all", true),
            ] {
                try await server.createFeed("timeline:\(user)", owner: user)
                let followed = try await server.api(
                    .POST, "/feeds/follows", as: user,
                    json: #"{"source":"timeline:\#(user)","target":"user:alice","push_preference":"\#(push)"}"#)
                #expect(followed.status == 201, "\(user): \(followed.text)")
                if device {
                    let made = try await server.api(
                        .POST, "/devices", as: user, json: #"{"id":"tok-\#(user)","push_provider":"firebase"}"#)
                    #expect(made.status == 201, "\(made.text)")
                }
            }
            let off = try await server.api(
                .POST, "/push_preferences", as: "erin",
                json: #"{"preferences":[{"feeds_preferences":{"custom_activity_types":{"post":"none"}}}]}"#)
            #expect(off.status == 201, "\(off.text)")
            #expect(try await server.api(.POST, "/users/block", as: "alice", json: #"{"blocked_user_id":"fay"}"#).status == 201)

            @Sendable func pushes() -> [JSONValue] { WebhookTests.events(receiver, type: "feeds.push_notification") }
            let post = try await WebhookTests.post(server, "hello followers")
            try await eventually("the push of alice's post") { pushes().count >= 1 }
            let quiet = try await server.api(
                .POST, "/feeds/activities", as: "alice",
                json: #"{"type":"post","feeds":["user:alice"],"text":"shh","skip_push":true}"#)
            #expect(quiet.status == 201, "\(quiet.text)")
            let note = try await server.api(
                .POST, "/feeds/activities", as: "alice", json: #"{"type":"note","feeds":["user:alice"],"text":"a note"}"#)
            let noteID = try #require(note.body["activity"]["id"].string)
            try await eventually("the pushes of alice's note") { pushes().count >= 3 }

            let seen = pushes().map { push in
                (push["user"]["id"].string ?? "", push["notification"]["activity_id"].string ?? "")
            }
            #expect(seen.count == 3, "\(seen)")
            #expect(Set(seen.map { "\($0.0) \($0.1)" }) == ["bob \(post)", "bob \(noteID)", "erin \(noteID)"], "\(seen)")
            let first = try #require(pushes().first { $0["notification"]["activity_id"].string == post })
            #expect(first["devices"].array.compactMap { $0["id"].string } == ["tok-bob"], "\(first)")
            #expect(first["notification"]["type"].string == "post" && first["notification"]["feed"].string == "user:alice")
            #expect(first["notification"]["actor"]["id"].string == "alice")
            #expect(first["notification"]["notification_context"]["trigger"]["text"].string == "hello followers", "\(first)")
        }
    }

    /// A followers-only feed's post reaches only accepted followers; a pending request is told nothing.
    @Test func aPrivatePostIsPushedOnlyToThoseWhoMayReadIt() async throws {
        try await WebhookTests.run { server, receiver in
            try await server.changeApp(WebhookTests.patientHook(receiver))
            try await server.createFeed("user:alice", owner: "alice", visibility: "followers")
            for user in ["bob", "carl"] {
                try await server.createFeed("timeline:\(user)", owner: user)
                #expect(
                    try await server.api(.POST, "/devices", as: user, json: #"{"id":"tok-\#(user)","push_provider":"apn"}"#)
                        .status == 201)
                let asked = try await server.api(
                    .POST, "/feeds/follows", as: user,
                    json: #"{"source":"timeline:\#(user)","target":"user:alice","push_preference":"all"}"#)
                #expect(asked.status == 201, "\(asked.text)")
            }
            // alice accepts bob; carl's request waits.
            let accepted = try await server.api(
                .POST, "/feeds/follows/accept", as: "alice", json: #"{"source":"timeline:bob","target":"user:alice"}"#)
            #expect(accepted.status == 201, "\(accepted.text)")
            _ = try await WebhookTests.post(server, "for my followers")
            let marker = try await WebhookTests.post(server, "again")
            try await eventually("the pushes of both posts") {
                WebhookTests.events(receiver, type: "feeds.push_notification").contains {
                    $0["notification"]["activity_id"].string == marker
                }
            }
            let users = WebhookTests.events(receiver, type: "feeds.push_notification").compactMap { $0["user"]["id"].string }
            #expect(users == ["bob", "bob"], "\(users)")
        }
    }

    /// `skip_push` on a write keeps its notification and sends no push.
    @Test func skipPushKeepsTheNotificationAndSendsNoPush() async throws {
        try await WebhookTests.run { server, receiver in
            try await server.changeApp(WebhookTests.patientHook(receiver))
            let post = try await WebhookTests.post(server, "like me")
            #expect(
                try await server.api(.POST, "/devices", as: "alice", json: #"{"id":"tok-a","push_provider":"apn"}"#).status == 201
            )
            for (user, skip) in [("bob", true), ("carl", false)] {
                let liked = try await server.api(
                    .POST, "/feeds/activities/\(post)/reactions", as: user,
                    json: #"{"type":"like","create_notification_activity":true,"skip_push":\#(skip)}"#)
                #expect(liked.status == 201, "\(liked.text)")
            }
            try await eventually("the push for carl's like") {
                !WebhookTests.events(receiver, type: "feeds.push_notification").isEmpty
            }
            let actors = WebhookTests.events(receiver, type: "feeds.push_notification").map {
                $0["notification"]["actor"]["id"].string ?? ""
            }
            #expect(actors == ["carl"], "\(actors)")
            // bob's notification was written all the same.
            let bell = try await server.api(.POST, "/feeds/feed_groups/notification/feeds/alice", as: "alice", json: "{}")
            let users = Set(
                bell.body["aggregated_activities"].array.flatMap { $0["activities"].array.compactMap { $0["user"]["id"].string } }
            )
            #expect(users == ["bob", "carl"], "\(bell.text)")
        }
    }
}
