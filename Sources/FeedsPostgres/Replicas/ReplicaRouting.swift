import FeedsCore

/// Which replica, if any, may answer a user's reads: the state behind `ReadReplicas`, kept apart
/// from the clock and the database so that its rules can be tested on their own.
///
/// The poller samples the primary's WAL insert position, noting the instant before it asked: every
/// write acknowledged before that instant lies below the position. A replica that has replayed
/// past a sample has every write acknowledged before the sample's instant; that instant is the
/// replica's `caughtUpTo`. A user's reads go to a replica caught up past their last write (its
/// instant taken after the write was acknowledged), and past `maxLag` ago for everyone.
struct ReplicaRouting {
    typealias Instant = ContinuousClock.Instant

    struct Sample {
        let instant: Instant
        let lsn: UInt64
    }

    struct Replica {
        /// The instant of the newest sample it has replayed past; nil until one, and while down.
        var caughtUpTo: Instant?
        var down = false
    }

    let maxLag: Duration
    private(set) var replicas: [Replica]
    /// The primary's positions, oldest first, back to the oldest one some replica has not passed.
    private(set) var samples: [Sample] = []
    /// Each user's last write, for as long as it may matter (`maxLag`).
    private(set) var writes: [Principal: Instant] = [:]
    private var turn = 0

    init(replicas: Int, maxLag: Duration) {
        self.replicas = Array(repeating: Replica(), count: replicas)
        self.maxLag = maxLag
    }

    /// The primary's WAL insert position, asked for at `instant`.
    mutating func sampled(_ lsn: UInt64, at instant: Instant) {
        samples.append(Sample(instant: instant, lsn: lsn))
        // A write older than `maxLag` never keeps a user off a replica: one that old is either
        // caught up past it or skipped for its lag.
        writes = writes.filter { instant - $0.value <= maxLag }
        samples.removeAll { instant - $0.instant > maxLag }
    }

    /// What replica `index` has replayed (`pg_last_wal_replay_lsn()`), or nil when it did not answer.
    mutating func replayed(_ index: Int, _ lsn: UInt64?) {
        guard let lsn else {
            replicas[index] = Replica(caughtUpTo: nil, down: true)
            return
        }
        // From this answer alone: a replica started again replays from an older point.
        replicas[index] = Replica(caughtUpTo: samples.last { Self.reached(lsn, $0.lsn) }?.instant, down: false)
    }

    /// A replica whose queries failed: skipped until the poller hears from it again.
    mutating func failed(_ index: Int) {
        replicas[index].down = true
    }

    /// `principal` wrote, acknowledged before `instant`.
    mutating func wrote(_ principal: Principal, at instant: Instant) {
        writes[principal] = instant
    }

    /// A replica that may answer `principal` at `now`, taking turns among those that may; nil for the primary.
    mutating func replica(for principal: Principal, now: Instant) -> Int? {
        let written = writes[principal]
        let eligible = replicas.indices.filter { index in
            let replica = replicas[index]
            guard !replica.down, let caughtUpTo = replica.caughtUpTo, now - caughtUpTo <= maxLag else { return false }
            return written.map { caughtUpTo > $0 } ?? true
        }
        guard !eligible.isEmpty else { return nil }
        turn &+= 1
        return eligible[Int(UInt(bitPattern: turn) % UInt(eligible.count))]
    }

    /// How far behind replica `index` is at `now`: the age of the newest write it surely has.
    func lag(_ index: Int, now: Instant) -> Duration? {
        replicas[index].caughtUpTo.map { now - $0 }
    }

    /// Whether a replay position has reached an insert position. An insert position at the start
    /// of a WAL page points past the page's 24-byte header, which replay stops short of while the
    /// primary is idle; no record ends inside a header, so the header's start serves as well.
    static func reached(_ replayed: UInt64, _ inserted: UInt64) -> Bool {
        let headerAtPageStart: UInt64 = 24
        let target = inserted % 8192 == headerAtPageStart ? inserted - headerAtPageStart : inserted
        return replayed >= target
    }
}
