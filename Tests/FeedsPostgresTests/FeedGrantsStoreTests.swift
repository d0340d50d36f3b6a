import FeedsCore
import FeedsTestSupport
import PostgresNIO
import Testing

@testable import FeedsPostgres

/// The `feed_grants` rows: a new database holds the documented defaults, and a change is written,
/// versioned, audited and read back whole.
@Suite struct FeedGrantsStoreTests {
    let logger = TestDatabase.logger

    @Test func aNewDatabaseHoldsTheDefaultsAndAChangeReadsBack() async throws {
        try await TestDatabase.with(migrated: true) { _, client in
            let store = PostgresAppSettingsStore(client: client)
            let fresh = try await store.settings(logger: logger)
            #expect(fresh.feedGrants == .defaults)

            var change = AppSettingsChange()
            change.feedGrants = FeedGrants.Change(visibility: .members, roles: [.member: [.read, .engage, .post, .follow]])
            let changed = try await store.update(change, by: "test", logger: logger)
            #expect(changed.version == fresh.version + 1)
            #expect(changed.feedGrants.allows(.post, .member, .members) && !changed.feedGrants.allows(.post, .member, .visible))
            #expect(try await store.settings(logger: logger).feedGrants == changed.feedGrants)

            let audit = try await client.query(
                "SELECT changes FROM app_settings_audit WHERE version = \(changed.version)", logger: logger)
            var lines: [[String]] = []
            for try await changes in audit.decode([String].self) { lines.append(changes) }
            #expect(lines == [["feed_visibilities.members.feed_member: engage, read → engage, follow, post, read"]])
            // The SQL lists the visibilities granted, as the store wrote them.
            let rows = try await client.query(
                "SELECT visibilities FROM feed_grants WHERE role = 'feed_member' AND action = 'post'", logger: logger)
            var granted: [[String]] = []
            for try await visibilities in rows.decode([String].self) { granted.append(visibilities) }
            #expect(granted == [["members"]])
        }
    }
}
