import FeedsCore
import FeedsTestSupport
import PostgresNIO
import Testing

@testable import FeedsPostgres

/// The notification store without a server: counts kept with the rows, and a notification about
/// an activity that is gone by the time its change is read is taken back.
@Suite struct NotificationStoreTests {
    let logger = TestDatabase.logger

    func draft(_ actor: String, source: String, activityID: String?) -> NotificationDraft {
        NotificationDraft(
            recipient: "alice", type: "reaction", actorID: actor, targetID: "a1", source: source,
            context: ["target": .object(["id": .string("a1")])], activityID: activityID)
    }

    @Test func aNotificationAboutAGoneActivityLeavesNothing() async throws {
        try await TestDatabase.with(migrated: true) { _, client in
            for statement in [
                "INSERT INTO users (id) VALUES ('alice'), ('bob'), ('carl')",
                "INSERT INTO activities (id, type, user_id, feeds) VALUES ('a1', 'post', 'alice', '{user:alice}')",
                "INSERT INTO activities (id, type, user_id, feeds, deleted_at) VALUES ('a2', 'post', 'alice', '{user:alice}', now())",
            ] { _ = try await client.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            let store = PostgresNotificationStore(client: client)
            let keptTouch = try await store.add(
                draft("bob", source: "reaction:a1:bob:like", activityID: "a1"), format: .notification, logger: logger)
            let kept = try #require(try await store.changes([keptTouch], logger: logger).first)
            #expect(kept.group?.activityCount == 1 && kept.group?.userCount == 1)
            #expect(kept.group?.activities.map(\.user.id) == ["bob"] && kept.status.unread == 1 && kept.status.unseen == 1)
            // A deleted activity, and one that never was, read in one batch with the live one: nothing
            // stays of either, and the live one's group reads as it is.
            var touched = [keptTouch]
            for (source, activity) in [("reaction:a2:carl:like", "a2"), ("reaction:zz:carl:like", "zz")] {
                let touch = try await store.add(
                    draft("carl", source: source, activityID: activity), format: .notification, logger: logger)
                #expect(touch.group != nil)
                touched.append(touch)
            }
            let changes = try await store.changes(touched, logger: logger)
            #expect(changes.map { $0.group?.activityCount } == [1, nil, nil] && changes.map(\.status.unread) == [1, 1, 1])
            let page = try await store.page(feed: "notification:alice", limit: 10, next: nil, logger: logger)
            #expect(page.groups.map(\.activityCount) == [1] && page.status.unread == 1)
            let rows = try await client.query("SELECT count(*)::int FROM notifications", logger: logger)
            for try await count in rows.decode(Int.self) { #expect(count == 1) }
        }
    }

    /// A write's change reads the group and the feed's status, as a page then shows them.
    @Test func aChangeIsTheGroupAndTheStatusAsAPageReadsThem() async throws {
        try await TestDatabase.with(migrated: true) { _, client in
            for statement in [
                "INSERT INTO users (id) VALUES ('alice'), ('bob'), ('carl')",
                "INSERT INTO activities (id, type, user_id, feeds) VALUES ('a1', 'post', 'alice', '{user:alice}')",
            ] { _ = try await client.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            let store = PostgresNotificationStore(client: client)
            _ = try await store.add(
                draft("bob", source: "reaction:a1:bob:like", activityID: "a1"), format: .notification, logger: logger)
            let touch = try await store.add(
                draft("carl", source: "reaction:a1:carl:like", activityID: "a1"), format: .notification, logger: logger)
            let second = try #require(try await store.changes([touch], logger: logger).first)
            let page = try await store.page(feed: "notification:alice", limit: 10, next: nil, logger: logger)
            #expect(second.group == page.groups.first && second.status == page.status)
            #expect(second.group?.activities.map(\.user.id) == ["carl", "bob"] && second.group?.userCount == 2)
            _ = try await store.mark(
                feed: "notification:alice", try NotificationMark(allRead: true, allSeen: nil, read: nil, seen: nil, watched: nil),
                logger: logger)
            let taken = try #require(try await store.remove(source: "reaction:a1:carl:like", logger: logger))
            #expect(taken.feed == "notification:alice")
            let afterTaking = try #require(try await store.changes([taken], logger: logger).first)
            #expect(afterTaking.group?.activities.map(\.user.id) == ["bob"])
            #expect(afterTaking.status.unread == 0 && afterTaking.status.lastReadAt != nil)
            let last = try #require(try await store.remove(source: "reaction:a1:bob:like", logger: logger))
            let afterLast = try #require(try await store.changes([last], logger: logger).first)
            #expect(afterLast.group == nil && afterLast.status.unseen == 0)
        }
    }

    /// A reaction's notification written with the reaction, in its statement, is the one
    /// `NotificationDraft.reaction` makes (which the same reaction again, moved, writes).
    @Test func aReactionsOwnStatementWritesTheDraftsNotification() async throws {
        try await TestDatabase.with(migrated: true) { _, client in
            let text = String(repeating: "é", count: 400)
            for statement in [
                "INSERT INTO users (id, name) VALUES ('alice', 'Alice'), ('bob', 'Bob B'), ('carl', '')",
                "INSERT INTO activities (id, type, user_id, feeds, text) VALUES ('a1', 'post', 'alice', '{user:alice}', '\(text)')",
                "INSERT INTO activities (id, type, user_id, feeds) VALUES ('a2', 'photo', 'alice', '{user:alice}')",
            ] { _ = try await client.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            let store = PostgresActivityStore(client: client, prepared: client)
            for (user, activity, copy) in [("bob", "a1", true), ("carl", "a2", false)] {
                let input = try ReactionInput(type: "like", custom: ["n": .number(1)], enforceUnique: nil)
                let made = try await store.addReaction(
                    input, activityID: activity, userID: user, by: .server,
                    notifying: ReactionNotification(group: "g-\(activity)", copyCustom: copy), logger: logger)
                let touch = NotificationTouch(feed: "notification:alice", group: "g-\(activity)", activityID: activity)
                #expect(made.notified == touch)
                let draft = try #require(NotificationDraft.reaction(made.reaction, to: made.activity, copyCustom: copy))
                let rows = try await client.query(
                    """
                    SELECT feed, grp, source, type, user_id, activity_id, context::text, custom::text FROM notifications
                    WHERE activity_id = \(activity)
                    """, logger: logger)
                var found = 0
                for try await row in rows.decode((String, String, String, String, String, String, String, String).self) {
                    found += 1
                    let written = [row.0, row.1, row.2, row.3, row.4, row.5]
                    #expect(written == [draft.feed, "g-\(activity)", draft.source, draft.type, user, activity])
                    #expect(try JSONText.object(row.6) == draft.context && JSONText.object(row.7) == draft.custom)
                }
                #expect(found == 1)
                // The same reaction again, and a reaction to one's own activity: none written.
                let again = try await store.addReaction(
                    input, activityID: activity, userID: user, by: .server,
                    notifying: ReactionNotification(group: "g-\(activity)", copyCustom: copy), logger: logger)
                let own = try await store.addReaction(
                    input, activityID: activity, userID: "alice", by: .server,
                    notifying: ReactionNotification(group: "g-\(activity)", copyCustom: copy), logger: logger)
                #expect(again.notified == nil && own.notified == nil)
            }
            let groups = try await client.query(
                "SELECT grp, activity_count, user_count FROM notification_groups ORDER BY grp", logger: logger)
            var counts: [String] = []
            for try await (group, activities, users) in groups.decode((String, Int, Int).self) {
                counts.append("\(group) \(activities) \(users)")
            }
            #expect(counts == ["g-a1 1 1", "g-a2 1 1"])
        }
    }
}
