import FeedsCore
import Logging
import Metrics
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The streaming replicas reads may go to (`FEEDS_READ_DATABASE_URLS`), and which of them may
/// answer whom (`ReplicaRouting`): a user's reads go to a replica that has replayed their last
/// write, and never to one that lags past `maxLag`, is down, or failed a query since it last answered.
///
/// Every `pollInterval` the primary's WAL insert position is sampled and each replica asked for
/// `pg_last_wal_replay_lsn()`; a TCP probe per replica (`DatabaseProbe`) notices one that stops
/// between polls. Writes, and anything that must see them, stay on the primary's pools.
public final class ReadReplicas: Service, ReadRouting {
    /// One replica's pools: plain, and generic plans for the prepared reads (`Configuration.generic`).
    public struct Replica: Sendable {
        public let name: String
        let index: Int
        let client: PostgresClient
        let prepared: PostgresClient
        let probe: DatabaseProbe

        /// Made when recorded: the metrics system is set up after the replicas are.
        var lagGauge: Gauge { Gauge(label: "feeds_replica_lag_seconds", dimensions: [("replica", name)]) }
    }

    public let replicas: [Replica]
    private let primary: PostgresClient
    private let pollInterval: Duration
    private let routing: Mutex<ReplicaRouting>
    private let logger: Logger

    /// - Parameters:
    ///   - configurations: each replica's connection, with the primary pools' options.
    ///   - maxLag: past this, a replica answers nobody until it catches up.
    public init(
        primary: PostgresClient, replicas configurations: [PostgresClient.Configuration], maxLag: Duration,
        pollInterval: Duration, logger: Logger
    ) {
        self.primary = primary
        self.replicas = configurations.enumerated().map { index, configuration in
            let name = "\(configuration.host ?? configuration.unixSocketPath ?? "?"):\(configuration.port ?? 5432)"
            return Replica(
                name: name, index: index,
                client: PostgresClient(configuration: configuration.named("feeds-replica"), backgroundLogger: logger),
                prepared: PostgresClient(
                    configuration: configuration.generic.named("feeds-replica-prepared"), backgroundLogger: logger),
                probe: DatabaseProbe(
                    configuration, interval: .seconds(1), name: "read replica \(name)",
                    whileDown: "its reads go to the primary", logger: logger))
        }
        self.pollInterval = pollInterval
        self.routing = Mutex(ReplicaRouting(replicas: configurations.count, maxLag: maxLag))
        self.logger = logger
    }

    /// The pools and probes to run beside the server, this poller last.
    public var services: [any Service] {
        replicas.flatMap { [$0.client, $0.prepared, $0.probe] as [any Service] } + [self]
    }

    /// The replica that may answer `principal`'s reads now, or nil for the primary.
    public func replica(for principal: Principal) -> Replica? {
        let now = ContinuousClock.now
        return routing.withLock { routing in
            // A replica the probe finds refusing connections is down until a poll hears from it.
            for replica in replicas where replica.probe.isDown { routing.failed(replica.index) }
            return routing.replica(for: principal, now: now).map { replicas[$0] }
        }
    }

    /// `principal`'s write was acknowledged: their reads stay on the primary until a replica has it.
    public func wrote(_ principal: Principal) {
        let now = ContinuousClock.now
        routing.withLock { $0.wrote(principal, at: now) }
    }

    /// A query on `replica` failed: it answers nobody until the next poll hears from it.
    public func failed(_ replica: Replica) {
        routing.withLock { $0.failed(replica.index) }
    }

    package func read<T: Sendable>(
        as principal: Principal, retryingWhen mayBeReplicas: (any Error) -> Bool, _ body: () async throws -> T
    ) async throws -> T {
        guard let replica = replica(for: principal) else {
            Self.primaryReads.increment()
            return try await body()
        }
        let route = ReadRoute(replica) { self.isDown(replica) }
        defer { if route.wrote { wrote(principal) } }
        do {
            let answer = try await onReplica(route, body)
            Self.replicaReads.increment()
            return answer
        } catch  where (error is ReplicaWentDown || mayBeReplicas(error)) && !route.wrote {
            failed(replica)
            Self.retriedReads.increment()
            logger.warning(
                "a read failed on replica \(replica.name); answered from the primary",
                metadata: ["error": "\(String(reflecting: error))"])
            return try await body()
        } catch {
            Self.replicaReads.increment()  // the replica's answer, a refusal
            throw error
        }
    }

    /// Runs `body` with its reads on the route's replica, and gives up on it if the replica is
    /// found down meanwhile: a query waiting for a connection to a stopped server waits until
    /// the pool's circuit breaker trips, a minute later.
    private func onReplica<T: Sendable>(_ route: ReadRoute, _ body: () async throws -> T) async throws -> T {
        try await withoutActuallyEscaping(body) { body in
            // The group ends before this returns, and runs `body` once, in its one task.
            nonisolated(unsafe) let body = body
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await ReadRoute.$current.withValue(route) { try await body() } }
                group.addTask {
                    // Until the request writes: from then on its reads are the primary's, and
                    // the watch ends with nothing to say.
                    while !route.wrote {
                        if self.isDown(route.replica) { throw ReplicaWentDown() }
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    return nil
                }
                defer { group.cancelAll() }
                while let outcome = try await group.next() {
                    if let answer = outcome { return answer }
                }
                throw ReplicaWentDown()  // unreachable: the read's task always answers or throws
            }
        }
    }

    private func isDown(_ replica: Replica) -> Bool {
        replica.probe.isDown || routing.withLock { $0.replicas[replica.index].down }
    }

    private struct ReplicaWentDown: Error {}

    private static let replicaReads = Counter(label: "feeds_reads_total", dimensions: [("on", "replica")])
    private static let primaryReads = Counter(label: "feeds_reads_total", dimensions: [("on", "primary")])
    private static let retriedReads = Counter(label: "feeds_reads_total", dimensions: [("on", "primary_after_replica_failed")])

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.poll()
                try? await Task.sleep(for: self.pollInterval)
            }
        }
    }

    /// One round: the primary's position first, then every replica's replay, side by side.
    private func poll() async {
        let asked = ContinuousClock.now
        if let lsn = try? await position("SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::int8", on: primary) {
            routing.withLock { $0.sampled(lsn, at: asked) }
        }
        await withTaskGroup(of: Void.self) { group in
            for replica in replicas {
                group.addTask { await self.poll(replica) }
            }
        }
    }

    private func poll(_ replica: Replica) async {
        let answer: UInt64?
        do {
            answer = try await position("SELECT (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::int8", on: replica.client)
            if answer == nil { logger.error("read replica \(replica.name) is not a standby: it takes no reads") }
        } catch {
            answer = nil
        }
        let now = ContinuousClock.now
        let (was, lag) = routing.withLock { routing in
            let was = routing.replicas[replica.index].down
            routing.replayed(replica.index, answer)
            return (was, routing.lag(replica.index, now: now))
        }
        if was != (answer == nil) {
            if answer == nil {
                logger.warning("read replica \(replica.name) does not answer; its reads go to the primary")
            } else {
                logger.notice("read replica \(replica.name) answers again")
            }
        }
        replica.lagGauge.record(lag.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } ?? -1)
    }

    /// A WAL position from `sql`, in bytes; nil when the server has none (a primary asked for replay).
    private func position(_ sql: String, on client: PostgresClient) async throws -> UInt64? {
        // A hang guard: a replica that stopped leaves the query waiting for a connection.
        let limit = max(pollInterval * 10, .seconds(2))
        return try await withDeadline(limit, orThrow: { PollTookLong() }) { [logger] in
            for try await lsn in try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Int64?.self) {
                return lsn.map { UInt64($0) }
            }
            return nil
        }
    }

    private struct PollTookLong: Error {}
}
