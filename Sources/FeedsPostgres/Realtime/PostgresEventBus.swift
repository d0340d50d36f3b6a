import FeedsCore
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import ServiceLifecycle

/// Real-time events between nodes through PostgreSQL, with nothing else to run: a node inserts
/// its writes' events into `realtime_events` and notifies `feeds_events` with their ids; every
/// node listens, reads each batch once, and hands it to `deliver`. Watch requests for a socket
/// held by another node travel on `feeds_watch` (`forwardWatch`).
///
/// Publishing does not hold up the write's reply: events queue, and one flush at a time writes
/// all that queued meanwhile in one statement, so a busy node batches by itself. When the
/// listening connection is lost, events may have been missed: `gap` runs once it listens again,
/// for the node to tell its clients to re-sync.
public final class PostgresEventBus: EventPublisher, Service {
    public static let eventsChannel = "feeds_events"
    public static let watchChannel = "feeds_watch"
    /// Events per statement: their ids must fit a notification's 8000 bytes.
    static let batchLimit = 400
    /// Events waiting past this many are dropped (and counted): the database is not keeping up.
    static let queueLimit = 50_000
    /// The most a statement of the bus may take, a connection's wait included.
    static let deadline = Duration.seconds(10)

    let client: PostgresClient
    /// A connection of its own for listening, outside the pool: a node with a pool of two must
    /// not lose one of them to waiting.
    let listener: PostgresClient
    let logger: Logger
    private let state = NIOLockedValueBox(Queue())
    private let received = NIOLockedValueBox(Received())
    private let handlers = NIOLockedValueBox<Handlers?>(nil)

    struct Queue {
        var events: [FeedEvent] = []
        var flushing = false
        var dropped = 0
    }

    /// Event ids notified and not read yet; `reading` while a reader takes them.
    struct Received {
        var ids: [Int64] = []
        var reading = false
    }

    struct Handlers {
        var deliver: @Sendable (_ events: [FeedEvent], _ followers: [[String]]) async -> Void
        var watched: @Sendable () -> [String]
        var watch: @Sendable (_ connectionID: String, _ fid: String, _ userID: String, _ on: Bool) async -> Void
        var revoke: @Sendable (_ fid: String, _ userID: String) -> Void
        var gap: @Sendable () async -> Void
    }

    /// `listening` is the database's configuration, for the listening connection.
    public init(client: PostgresClient, listening configuration: PostgresClient.Configuration, logger: Logger) {
        self.client = client
        var configuration = configuration
        configuration.options.minimumConnections = 0
        configuration.options.maximumConnections = 1
        self.listener = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
    }

    /// Where this node's listener hands what it receives; set before `run`. `deliver` gets each
    /// event with the feeds watched on this node (`watched`) that follow its feeds, for the events
    /// that go to followers too (`FeedEvent.toFollowers`). `revoke` ends this node's watches an
    /// event could not carry (`FeedEvent.thenRevoke`) when it cannot be published.
    public func onReceive(
        deliver: @escaping @Sendable (_ events: [FeedEvent], _ followers: [[String]]) async -> Void,
        watched: @escaping @Sendable () -> [String],
        watch: @escaping @Sendable (_ connectionID: String, _ fid: String, _ userID: String, _ on: Bool) async -> Void,
        revoke: @escaping @Sendable (_ fid: String, _ userID: String) -> Void,
        gap: @escaping @Sendable () async -> Void
    ) {
        handlers.withLockedValue {
            $0 = Handlers(deliver: deliver, watched: watched, watch: watch, revoke: revoke, gap: gap)
        }
    }

    public func publish(_ events: [FeedEvent]) {
        guard !events.isEmpty else { return }
        let (start, dropped) = state.withLockedValue { queue -> (Bool, ArraySlice<FeedEvent>) in
            let room = max(0, Self.queueLimit - queue.events.count)
            queue.events += events.prefix(room)
            queue.dropped += events.count - min(room, events.count)
            guard !queue.flushing else { return (false, events.dropFirst(room)) }
            queue.flushing = true
            return (true, events.dropFirst(room))
        }
        revokeHere(dropped)
        if start { Task { await flush() } }
    }

    /// The watches that events not published would have ended, ended on this node at least.
    private func revokeHere(_ events: some Collection<FeedEvent>) {
        guard let revoke = handlers.withLockedValue({ $0?.revoke }) else { return }
        for event in events {
            for user in event.thenRevoke { for fid in event.fids { revoke(fid, user) } }
        }
    }

    /// Asks the node holding `connectionID` to start (or stop) sending it `fid`'s events.
    public func forwardWatch(connectionID: String, fid: String, userID: String, on: Bool) async throws {
        let message = [connectionID, fid, userID, on ? "1" : "0"].joined(separator: " ")
        try await client.query("SELECT pg_notify(\(Self.watchChannel), \(message))", logger: logger)
    }

    /// Writes what queued, a batch per statement, until nothing is left.
    private func flush() async {
        while true {
            let (batch, dropped) = state.withLockedValue { queue -> ([FeedEvent], Int) in
                let batch = Array(queue.events.prefix(Self.batchLimit))
                queue.events.removeFirst(batch.count)
                if batch.isEmpty { queue.flushing = false }
                defer { queue.dropped = 0 }
                return (batch, queue.dropped)
            }
            if dropped > 0 {
                logger.error("real-time events dropped: the database is not keeping up", metadata: ["events": "\(dropped)"])
            }
            guard !batch.isEmpty else { return }
            do {
                // Within a deadline: a pool that lost its database may hold a request without end,
                // and this loop is every later event's way out.
                _ = try await withDeadline(
                    Self.deadline, orThrow: { FeedsError(.unavailable, "the event insert did not answer in time") }
                ) { [client, logger] in
                    try await client.query(
                        """
                        WITH e AS (
                            INSERT INTO realtime_events (fids, only_for, to_followers, payload, actors, then_revoke)
                            SELECT string_to_array(x.f, ' '), NULLIF(x.o, ''), x.t, x.p, ARRAY(SELECT jsonb_array_elements_text(x.a::jsonb)),
                                ARRAY(SELECT jsonb_array_elements_text(x.r::jsonb))
                            FROM unnest(\(batch.map { $0.fids.joined(separator: " ") })::text[], \(batch.map { $0.onlyFor ?? "" })::text[],
                                        \(batch.map(\.toFollowers))::boolean[],
                                        \(batch.map { String(decoding: $0.payload, as: UTF8.self) })::text[],
                                        \(batch.map { JSONValue.array($0.actors.map(JSONValue.string)).text })::text[],
                                        \(batch.map { JSONValue.array($0.thenRevoke.map(JSONValue.string)).text })::text[])
                                WITH ORDINALITY AS x(f, o, t, p, a, r, n)
                            ORDER BY x.n
                            RETURNING id
                        )
                        SELECT pg_notify(\(Self.eventsChannel), string_agg(id::text, ',')) FROM e
                        """, logger: logger)
                }
            } catch {
                logger.error("real-time events not published", metadata: ["events": "\(batch.count)", "error": "\(error)"])
                revokeHere(batch)
            }
        }
    }

    public func run() async throws {
        // The listen is cancelled at shutdown but not waited for, as `AppSettingsListener`'s.
        let listening = Task { await self.listen() }
        defer { listening.cancel() }
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.listener.run() }
                group.addTask { await self.expireOld() }
            }
        }
    }

    /// Listens on both channels; after a lost connection, listens again and reports the gap.
    private func listen() async {
        var backoff = Duration.milliseconds(50)
        var lost = false
        while !Task.isCancelled {
            do {
                try await listener.withConnection { connection in
                    try await connection.listen(on: Self.watchChannel) { watches in
                        try await connection.listen(on: Self.eventsChannel) { events in
                            if lost, let gap = self.handlers.withLockedValue({ $0?.gap }) { await gap() }
                            lost = false
                            backoff = .milliseconds(50)
                            try await withThrowingTaskGroup { group in
                                group.addTask { for try await notification in watches { await self.watch(notification.payload) } }
                                group.addTask { for try await notification in events { self.received(notification.payload) } }
                                try await group.next()
                                group.cancelAll()
                            }
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("lost the real-time listener; reconnecting", metadata: ["error": "\(error)"])
            }
            lost = true
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, .seconds(5))
        }
    }

    /// Notes the ids a notification names; one reader at a time reads all that were noted, so a
    /// busy node reads (and its sockets are written) many batches at once, an idle one at once.
    private func received(_ payload: String) {
        let ids = payload.split(separator: ",").compactMap { Int64($0) }
        let start = received.withLockedValue { received -> Bool in
            received.ids += ids
            guard !received.reading, !received.ids.isEmpty else { return false }
            received.reading = true
            return true
        }
        if start { Task { await readReceived() } }
    }

    private func readReceived() async {
        while true {
            let ids = received.withLockedValue { received -> [Int64] in
                let ids = Array(received.ids.prefix(Self.batchLimit * 5))
                received.ids.removeFirst(ids.count)
                if ids.isEmpty { received.reading = false }
                return ids
            }
            guard !ids.isEmpty else { return }
            await read(ids)
        }
    }

    /// Reads events once for this node, and delivers them. For an event of a public activity the
    /// same statement finds which of the feeds watched here follow its feeds (accepted follows,
    /// whose owners may read the followed feed under the app's grants), so a timeline's watchers
    /// get it too; a node with no watchers looks up nothing. It reads
    /// the watched feeds' visibilities too (`feed_visibility`).
    private func read(_ ids: [Int64]) async {
        guard let handlers = handlers.withLockedValue({ $0 }) else { return }
        do {
            let watched = handlers.watched()
            let (events, followers) = try await withDeadline(
                Self.deadline, orThrow: { FeedsError(.unavailable, "the event read did not answer in time") }
            ) { [client, logger] in
                let rows = try await client.query(
                    """
                    SELECT e.fids, e.only_for, e.to_followers, e.payload, e.then_revoke, f.following,
                        CASE WHEN cardinality(e.actors) > 0 THEN ARRAY(
                            SELECT ub.blocked_user_id FROM user_blocks ub WHERE ub.user_id = ANY(e.actors)
                            UNION SELECT ub.user_id FROM user_blocks ub WHERE ub.blocked_user_id = ANY(e.actors)
                        ) ELSE '{}' END,
                        CASE WHEN cardinality(here.fids) > 0 THEN ARRAY(
                            SELECT rf.fid || ' ' || rf.visibility FROM feeds rf
                            WHERE rf.fid = ANY(e.fids || f.following) AND rf.fid = ANY(here.fids)
                        ) ELSE '{}' END
                    FROM realtime_events e, (SELECT \(watched)::text[] AS fids) here,
                        LATERAL (SELECT CASE WHEN e.to_followers AND cardinality(here.fids) > 0 THEN ARRAY(
                            SELECT DISTINCT w.source_fid FROM follows w
                                JOIN feeds ws ON ws.fid = w.source_fid JOIN feeds wt ON wt.fid = w.target_fid
                            WHERE w.target_fid = ANY(e.fids) AND w.status = 'accepted' AND w.source_fid = ANY(here.fids)
                                AND \(unescaped: FeedReadable.predicate(feed: "wt", user: "ws.created_by"))
                        ) ELSE '{}'::text[] END AS following) f
                    WHERE e.id = ANY(\(ids)) ORDER BY e.id
                    """, logger: logger)
                var events: [FeedEvent] = []
                var followers: [[String]] = []
                for try await (fids, onlyFor, toFollowers, payload, thenRevoke, following, hidden, visible) in rows.decode(
                    ([String], String?, Bool, String, [String], [String], [String], [String]).self)
                {
                    events.append(
                        FeedEvent(
                            fids: fids, onlyFor: onlyFor, toFollowers: toFollowers, payload: Array(payload.utf8),
                            thenRevoke: thenRevoke, hiddenFrom: Set(hidden), visibilities: Self.visibilities(visible)))
                    followers.append(following)
                }
                return (events, followers)
            }
            await handlers.deliver(events, followers)
        } catch {
            logger.error("cannot read real-time events", metadata: ["events": "\(ids.count)", "error": "\(error)"])
        }
    }

    /// `fid visibility` pairs as a map (a fid holds no space).
    private static func visibilities(_ pairs: [String]) -> [String: String] {
        var map: [String: String] = [:]
        for pair in pairs {
            guard let space = pair.lastIndex(of: " ") else { continue }
            map[String(pair[..<space])] = String(pair[pair.index(after: space)...])
        }
        return map
    }

    private func watch(_ payload: String) async {
        let parts = payload.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, let watch = handlers.withLockedValue({ $0?.watch }) else { return }
        await watch(parts[0], parts[1], parts[2], parts[3] == "1")
    }

    /// Events are read within moments of their insert; those older than two minutes go.
    private func expireOld() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: .seconds(60)) } catch { return }
            do {
                try await client.query(
                    "DELETE FROM realtime_events WHERE created_at < now() - interval '2 minutes'", logger: logger)
            } catch {
                logger.warning("cannot expire real-time events", metadata: ["error": "\(error)"])
            }
        }
    }
}
