import FeedsCore
import Testing

@testable import FeedsPostgres

/// The rules that pick a replica for a reader, on made-up instants: no clock, no database.
@Suite struct ReplicaRoutingTests {
    let start = ContinuousClock.now
    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    @Test func aReaderWhoWroteWaitsForAReplicaThatReplayedTheirWrite() {
        var routing = ReplicaRouting(replicas: 1, maxLag: .seconds(5))
        routing.sampled(100, at: at(0))
        routing.replayed(0, 100)
        #expect(routing.replica(for: .user("alice"), now: at(10)) == 0)
        // Alice's write is acknowledged at 20 ms; the sample at 30 ms lies past it (LSN 200).
        routing.wrote(.user("alice"), at: at(20))
        routing.sampled(200, at: at(30))
        routing.replayed(0, 150)
        #expect(routing.replica(for: .user("alice"), now: at(40)) == nil)
        #expect(routing.replica(for: .user("bob"), now: at(40)) == 0)
        #expect(routing.replica(for: .server, now: at(40)) == 0)
        routing.replayed(0, 200)
        #expect(routing.replica(for: .user("alice"), now: at(50)) == 0)
    }

    @Test func aSampleTakenBeforeTheWriteWasAcknowledgedDoesNotCoverIt() {
        var routing = ReplicaRouting(replicas: 1, maxLag: .seconds(5))
        routing.sampled(100, at: at(0))
        routing.wrote(.server, at: at(5))
        routing.replayed(0, 100)
        #expect(routing.replica(for: .server, now: at(6)) == nil)
    }

    @Test func aReplicaPastTheLagBoundAnswersNobody() {
        var routing = ReplicaRouting(replicas: 1, maxLag: .seconds(1))
        routing.sampled(100, at: at(0))
        routing.replayed(0, 100)
        routing.sampled(500, at: at(900))
        routing.replayed(0, 100)
        #expect(routing.replica(for: .user("bob"), now: at(1000)) == 0)
        #expect(routing.replica(for: .user("bob"), now: at(1001)) == nil)
        #expect(routing.lag(0, now: at(1001)) == .milliseconds(1001))
    }

    @Test func aReplicaThatFailedOrDidNotAnswerIsSkippedUntilItAnswers() {
        var routing = ReplicaRouting(replicas: 2, maxLag: .seconds(5))
        routing.sampled(100, at: at(0))
        routing.replayed(0, 100)
        routing.replayed(1, 100)
        routing.failed(0)
        #expect((0..<4).map { _ in routing.replica(for: .user("bob"), now: at(1)) } == [1, 1, 1, 1])
        routing.replayed(1, nil)
        #expect(routing.replica(for: .user("bob"), now: at(1)) == nil)
        routing.replayed(0, 100)
        #expect(routing.replica(for: .user("bob"), now: at(1)) == 0)
    }

    @Test func readersTakeTurnsAmongTheReplicasThatMayAnswer() {
        var routing = ReplicaRouting(replicas: 3, maxLag: .seconds(5))
        routing.sampled(100, at: at(0))
        for replica in 0..<3 { routing.replayed(replica, 100) }
        let chosen = (0..<6).compactMap { _ in routing.replica(for: .user("bob"), now: at(1)) }
        #expect(Set(chosen) == [0, 1, 2])
        #expect(chosen.count == 6)
    }

    @Test func aReplicaStartedAgainCountsOnlyWhatItHasReplayedSince() {
        var routing = ReplicaRouting(replicas: 1, maxLag: .seconds(5))
        routing.sampled(100, at: at(0))
        routing.sampled(300, at: at(10))
        routing.replayed(0, 300)
        routing.wrote(.user("alice"), at: at(5))
        #expect(routing.replica(for: .user("alice"), now: at(11)) == 0)
        routing.replayed(0, 150)  // replaying again from an older restart point
        #expect(routing.replica(for: .user("alice"), now: at(11)) == nil)
        #expect(routing.replica(for: .user("bob"), now: at(11)) == 0)
    }

    @Test func oldWritesAndSamplesAreForgotten() {
        var routing = ReplicaRouting(replicas: 1, maxLag: .seconds(1))
        routing.wrote(.user("alice"), at: at(0))
        for step in 0..<100 { routing.sampled(UInt64(100 + step), at: at(step * 100)) }
        #expect(routing.writes.isEmpty)
        #expect(routing.samples.count == 11)
    }

    /// An idle primary's insert position may sit just past a page header that replay never reaches.
    @Test func anInsertPositionPastAPageHeaderIsReachedAtThePageStart() {
        #expect(ReplicaRouting.reached(8192 * 7, 8192 * 7 + 24))
        #expect(!ReplicaRouting.reached(8192 * 7 - 8, 8192 * 7 + 24))
        #expect(!ReplicaRouting.reached(8192 * 7 + 16, 8192 * 7 + 40))
        #expect(ReplicaRouting.reached(8192 * 7 + 40, 8192 * 7 + 40))
    }
}
