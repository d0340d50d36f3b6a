import FeedsCore
import FeedsPostgres
import FeedsTestSupport
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import Testing

@testable import FeedsServices

/// Notification feeds' events, read after the writes: what is noted while a read is out shares
/// the next read, each group once, and a full queue drops rather than grows.
@Suite struct NotificationChangesTests {
    let logger = TestDatabase.logger

    @Test func notesMadeDuringAReadShareTheNextReadAndAFullQueueDrops() async throws {
        try await ServiceHarness.with { harness in
            for statement in [
                "INSERT INTO users (id) VALUES ('alice'), ('bob'), ('carl')",
                "INSERT INTO activities (id, type, user_id, feeds) VALUES ('a1', 'post', 'alice', '{user:alice}')",
            ] { _ = try await harness.client.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            let real = PostgresNotificationStore(client: harness.client)
            func added(_ actor: String, _ type: String) async throws -> NotificationTouch {
                try await real.add(
                    NotificationDraft(
                        recipient: "alice", type: type, actorID: actor, targetID: "a1", source: "\(type):a1:\(actor)",
                        context: [:], activityID: "a1"),
                    format: .notification, logger: logger)
            }
            let (liked, commented) = (try await added("bob", "reaction"), try await added("carl", "comment"))
            let store = GatedChanges(real)
            let published = NIOLockedValueBox<[(NotificationTouch, NotificationChange)]>([])
            let changes = NotificationChanges(store: store, queueLimit: 3) { touch, change in
                published.withLockedValue { $0.append((touch, change)) }
            }
            changes.note(liked)
            await store.arrived()  // the first read is out, held at the gate
            // Three wait (the same group twice among them); a fourth finds the queue full.
            let statusOnly = NotificationTouch(feed: "notification:alice", group: nil)
            for touch in [commented, commented, liked, statusOnly] { changes.note(touch) }
            store.open()
            await changes.settled()
            #expect(store.batches == [[liked], [commented, liked]])
            let events = published.withLockedValue { $0 }
            #expect(events.map(\.0) == [liked, commented, liked])
            #expect(events.map { $0.1.group?.activities.first?.user.id } == ["bob", "carl", "bob"])
            #expect(events.allSatisfy { $0.1.status.unread == 2 })
        }
    }
}

/// The real store, its first `changes` held until `open()`; the batches it was asked for.
private final class GatedChanges: NotificationStore {
    let real: PostgresNotificationStore
    private let state = NIOLockedValueBox(State())

    private struct State {
        var batches: [[NotificationTouch]] = []
        var open = false
        var held: CheckedContinuation<Void, Never>?
        var arrival: CheckedContinuation<Void, Never>?
    }

    init(_ real: PostgresNotificationStore) { self.real = real }

    var batches: [[NotificationTouch]] { state.withLockedValue { $0.batches } }

    /// Returns once a read is held at the gate.
    func arrived() async {
        await withCheckedContinuation { continuation in
            let now = state.withLockedValue { state -> Bool in
                guard state.held == nil else { return true }
                state.arrival = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        let held = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            state.open = true
            defer { state.held = nil }
            return state.held
        }
        held?.resume()
    }

    func changes(_ touched: [NotificationTouch], logger: Logger) async throws -> [NotificationChange] {
        await withCheckedContinuation { continuation in
            let (pass, arrival) = state.withLockedValue { state -> (Bool, CheckedContinuation<Void, Never>?) in
                state.batches.append(touched)
                guard !state.open else { return (true, nil) }
                state.held = continuation
                defer { state.arrival = nil }
                return (false, state.arrival)
            }
            arrival?.resume()
            if pass { continuation.resume() }
        }
        return try await real.changes(touched, logger: logger)
    }

    func add(_ draft: NotificationDraft, format: AggregationFormat, logger: Logger) async throws -> NotificationTouch {
        try await real.add(draft, format: format, logger: logger)
    }
    func remove(source: String, logger: Logger) async throws -> NotificationTouch? {
        try await real.remove(source: source, logger: logger)
    }
    func removeAll(activityID: String, logger: Logger) async throws -> [String] {
        try await real.removeAll(activityID: activityID, logger: logger)
    }
    func page(feed: String, limit: Int, next: String?, logger: Logger) async throws -> NotificationPage {
        try await real.page(feed: feed, limit: limit, next: next, logger: logger)
    }
    func mark(feed: String, _ mark: NotificationMark, logger: Logger) async throws -> NotificationStatus {
        try await real.mark(feed: feed, mark, logger: logger)
    }
}
