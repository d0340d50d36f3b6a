import FeedsCore
import FeedsTestSupport
import PostgresNIO
import Testing

@testable import FeedsPostgres

/// The notification store without a server: counts kept with the rows, and a notification about
/// an activity that is gone by the time it is written is taken back.
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
            let kept = try await store.add(
                draft("bob", source: "reaction:a1:bob:like", activityID: "a1"), format: .notification, logger: logger)
            #expect(kept?.activityCount == 1 && kept?.userCount == 1)
            // A deleted activity, and one that never was: nothing stays of either.
            for (source, activity) in [("reaction:a2:carl:like", "a2"), ("reaction:zz:carl:like", "zz")] {
                let gone = try await store.add(
                    draft("carl", source: source, activityID: activity), format: .notification, logger: logger)
                #expect(gone == nil)
            }
            let page = try await store.page(feed: "notification:alice", limit: 10, next: nil, logger: logger)
            #expect(page.groups.map(\.activityCount) == [1] && page.status.unread == 1)
            let rows = try await client.query("SELECT count(*)::int FROM notifications", logger: logger)
            for try await count in rows.decode(Int.self) { #expect(count == 1) }
        }
    }
}
