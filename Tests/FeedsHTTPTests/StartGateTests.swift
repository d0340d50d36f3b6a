import Testing

@testable import FeedsHTTP
@testable import FeedsServer

/// The gate the background services wait behind until the schema is migrated.
@Suite struct StartGateTests {
    @Test func waitersWaitUntilItOpensAndLaterOnesPassAtOnce() async {
        let gate = StartGate()
        let early = Task { await gate.wait() }
        let also = Task { await gate.wait() }
        gate.open()
        #expect(await early.value)
        #expect(await also.value)
        #expect(await gate.wait())
    }

    @Test func aCancelledWaiterGivesUpAndTheGateStillOpensForOthers() async {
        let gate = StartGate()
        let cancelled = Task { await gate.wait() }
        cancelled.cancel()
        #expect(await cancelled.value == false)
        let other = Task { await gate.wait() }
        gate.open()
        #expect(await other.value)
    }
}
