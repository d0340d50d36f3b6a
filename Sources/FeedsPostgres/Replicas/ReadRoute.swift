import PostgresNIO
import Synchronization

/// Where one request's reads run: the replica `ReadReplicas` chose for it, until the request
/// writes. Set around a read operation's handler (`ReadRoutingMiddleware`); a store's reads ask
/// `ReadRoute.client(or:)`, its writes always take the primary.
public final class ReadRoute: Sendable {
    public let replica: ReadReplicas.Replica
    /// Whether the replica has been found down since: a query started then goes to the primary
    /// rather than wait for a connection to a server that stopped.
    private let replicaIsDown: @Sendable () -> Bool
    private let leftReplica = Atomic(false)

    init(_ replica: ReadReplicas.Replica, isDown: @escaping @Sendable () -> Bool) {
        (self.replica, self.replicaIsDown) = (replica, isDown)
    }

    @TaskLocal public static var current: ReadRoute?

    /// Whether the request wrote (its later reads went to the primary).
    public var wrote: Bool { leftReplica.load(ordering: .relaxed) }

    /// The pool for a read: the request's replica, else `primary`.
    static func client(or primary: PostgresClient) -> PostgresClient {
        guard let route = current, !route.wrote, !route.replicaIsDown() else { return primary }
        return route.replica.client
    }

    /// The pool for a prepared read (generic plans): the request's replica's, else `primary`.
    static func prepared(or primary: PostgresClient) -> PostgresClient {
        guard let route = current, !route.wrote, !route.replicaIsDown() else { return primary }
        return route.replica.prepared
    }

    /// The request is about to write (a feed read that creates it): the rest of its reads go to
    /// the primary, which alone will have the write, and so do its user's until a replica does.
    /// A read that found nothing on the replica does the same: the replica may only be behind.
    static func leaveReplica() {
        current?.leftReplica.store(true, ordering: .relaxed)
    }
}

/// A store whose reads may run on the request's replica: `reads` for a read, `client` for a write.
protocol ReplicaReading {
    var client: PostgresClient { get }
}

extension ReplicaReading {
    var reads: PostgresClient { ReadRoute.client(or: client) }
}

extension PostgresActivityStore: ReplicaReading {
    var preparedReads: PostgresClient { ReadRoute.prepared(or: prepared) }
}

extension PostgresNotificationStore: ReplicaReading {}
extension PostgresPinStore: ReplicaReading {}
extension PostgresMemberStore: ReplicaReading {}
extension PostgresPollStore: ReplicaReading {}
