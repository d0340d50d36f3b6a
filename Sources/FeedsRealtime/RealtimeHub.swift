import FeedsCore
import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// This node's WebSocket clients and the feeds each watches: events go to the watchers of their
/// feeds that may see them. Writes go straight to the sockets' channels (`RealtimeConnection`);
/// a client too slow to read them is closed, and re-syncs when it reconnects (as the SDKs do).
public final class RealtimeHub: Sendable {
    /// WebSocket close code 1012 (service restart): reconnect, and read again what may be missed.
    public static let resyncCode: UInt16 = 1012

    package struct Client {
        package let connection: RealtimeConnection
        package var watching: Set<String> = []
    }

    package struct State {
        package var clients: [String: Client] = [:]
        package var watchers: [String: Set<String>] = [:]
    }

    private let state = NIOLockedValueBox(State())
    /// Messages waiting for their event loop, by loop; a loop with an entry has a drain coming.
    private let outboxes = NIOLockedValueBox<[ObjectIdentifier: [(RealtimeConnection, ByteBuffer)]]>([:])
    /// Names this node's connections, so that another node's are told apart.
    package let node = UUID().uuidString.prefix(8).lowercased()

    public init() {}

    /// The number of connected clients.
    public var count: Int { state.withLockedValue { $0.clients.count } }

    /// A new connection's id: it starts with this node's name.
    package func newConnectionID() -> String { "\(node)-\(UUID().lowercasedString)" }

    /// A client that said who it is: from now on it gets what it watches, and health checks.
    package func join(_ connection: RealtimeConnection) {
        state.withLockedValue { $0.clients[connection.id] = Client(connection: connection) }
    }

    package func leave(_ id: String) {
        state.withLockedValue { state in
            guard let client = state.clients.removeValue(forKey: id) else { return }
            for fid in client.watching { state.unwatch(fid, by: id) }
        }
    }

    public enum WatchOutcome: Sendable { case done, notYours, elsewhere, tooMany }

    /// Feeds one connection may watch at once.
    public static let watchLimit = 1_000

    /// Starts (or stops) sending `fid`'s events to the connection, if it is this node's and its
    /// user's. A stop naming `everyConnection` stops all of the user's (`revoke`).
    @discardableResult
    public func watch(connectionID: String, fid: String, userID: String, on: Bool) -> WatchOutcome {
        if connectionID == Self.everyConnection, !on {
            revoke(fid: fid, userID: userID)
            return .done
        }
        if connectionID == Self.allButConnection, !on {
            revoke(fid: fid, allBut: userID.isEmpty ? nil : userID)
            return .done
        }
        return state.withLockedValue { state in
            guard var client = state.clients[connectionID] else { return .elsewhere }
            guard client.connection.userID == userID else { return .notYours }
            if on {
                guard client.watching.count < Self.watchLimit || client.watching.contains(fid) else { return .tooMany }
                client.watching.insert(fid)
                state.watchers[fid, default: []].insert(connectionID)
            } else {
                client.watching.remove(fid)
                state.unwatch(fid, by: connectionID)
            }
            state.clients[connectionID] = client
            return .done
        }
    }

    /// Stops every watch of `fid` by `userID`'s connections on this node: the user may no longer
    /// read it (a follow removed), so no further event of it reaches them.
    public func revoke(fid: String, userID: String) {
        revoke(fid: fid) { $0 == userID }
    }

    /// Stops every watch of `fid` on this node but `kept`'s (nil: all): the feed was deleted, or
    /// closed to those who read it only while it was open.
    public func revoke(fid: String, allBut kept: String?) {
        revoke(fid: fid) { $0 != kept }
    }

    private func revoke(fid: String, of users: (String) -> Bool) {
        state.withLockedValue { $0.revoke(fid: fid, of: users) }
    }

    /// The connection id a stop names to end all of a user's watches of a feed (sent to every node
    /// by `Realtime.revoke`).
    public static let everyConnection = "*"

    /// The connection id a stop names to end every watch of a feed but its user's (`revoke(fid:allBut:)`;
    /// the empty user, which no token names, keeps none).
    public static let allButConnection = "**"

    /// The feeds watched on this node.
    public var watchedFeeds: [String] { state.withLockedValue { Array($0.watchers.keys) } }

    /// Hands each event to the watchers of its feeds that may see it, once per watcher and feed,
    /// and to those of the watched feeds that follow them (`followers`, one list per event), each
    /// with its own fid; not twice to a feed the event names itself. The watches an event ends
    /// (`thenRevoke`) end right after it, so their last event is the one that says why.
    public func deliver(_ events: [FeedEvent], followers: [[String]]) {
        var messages: [(RealtimeConnection, ByteBuffer)] = []
        state.withLockedValue { state in
            for (event, following) in zip(events, followers) {
                for fid in event.fids { state.address(event, as: fid, into: &messages) }
                for fid in Set(following).subtracting(event.fids) { state.address(event, as: fid, into: &messages) }
                for user in event.thenRevoke {
                    for fid in event.fids { state.revoke(fid: fid) { $0 == user } }
                }
            }
        }
        send(messages)
    }

    /// Queues each message for its socket's event loop. A loop drains all that queued for it at
    /// once, and flushes each socket once: when events come faster than a loop writes them, a
    /// socket gets several in one write instead of a system call each.
    package func send(_ messages: [(RealtimeConnection, ByteBuffer)]) {
        var byLoop: [ObjectIdentifier: [(RealtimeConnection, ByteBuffer)]] = [:]
        for message in messages { byLoop[ObjectIdentifier(message.0.eventLoop), default: []].append(message) }
        let idle = outboxes.withLockedValue { outboxes in
            byLoop.compactMap { loop, batch -> (any EventLoop)? in
                defer { outboxes[loop, default: []] += batch }
                return outboxes[loop] == nil ? batch[0].0.eventLoop : nil
            }
        }
        for loop in idle { loop.execute { self.drain(loop) } }
    }

    private func drain(_ loop: any EventLoop) {
        let batch = outboxes.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(loop)) } ?? []
        var written: [ObjectIdentifier: RealtimeConnection] = [:]
        for (connection, message) in batch {
            connection.send(message)
            written[ObjectIdentifier(connection)] = connection
        }
        for connection in written.values { connection.flush() }
    }

    private var connections: [RealtimeConnection] { state.withLockedValue { $0.clients.values.map(\.connection) } }

    /// Sends every client a health check (its own, with its connection id).
    package func healthCheckAll(now: Date) {
        send(connections.map { ($0, TextFrame.make(RealtimeMessages.healthCheck(connectionID: $0.id, at: now))) })
    }

    /// Pings every client; one that did not answer the previous ping (nor sent anything) is closed.
    package func pingAll() {
        for connection in connections { connection.ping() }
    }

    /// WebSocket close code 1008 (policy violation): the user may not connect (deactivated).
    public static let refusedCode: UInt16 = 1008

    /// Closes the sockets of `users` (deactivated): their reconnects are refused.
    public func close(users: Set<String>, reason: String) {
        for connection in connections where users.contains(connection.userID) {
            connection.close(code: Self.refusedCode, reason: reason)
        }
    }

    /// Closes every client: their events may have been missed, so they reconnect and re-sync.
    public func resyncAll(reason: String) {
        for connection in connections { connection.close(code: Self.resyncCode, reason: reason) }
    }
}

extension RealtimeHub.State {
    /// Queues `event` for the watchers of `fid` that may see it: one frame for all of them.
    package func address(_ event: FeedEvent, as fid: String, into messages: inout [(RealtimeConnection, ByteBuffer)]) {
        guard let watchers = watchers[fid] else { return }
        var message: ByteBuffer?
        for id in watchers {
            guard let client = clients[id] else { continue }
            if let only = event.onlyFor, only != client.connection.userID { continue }
            if event.hiddenFrom.contains(client.connection.userID) { continue }
            if message == nil { message = TextFrame.make(event.message(for: fid)) }
            messages.append((client.connection, message!))
        }
    }

    /// Ends the watches of `fid` by the connections of `users`.
    package mutating func revoke(fid: String, of users: (String) -> Bool) {
        for id in watchers[fid] ?? [] {
            guard let watcher = clients[id]?.connection.userID, users(watcher) else { continue }
            clients[id]?.watching.remove(fid)
            unwatch(fid, by: id)
        }
    }

    package mutating func unwatch(_ fid: String, by id: String) {
        watchers[fid]?.remove(id)
        if watchers[fid]?.isEmpty == true { watchers[fid] = nil }
    }
}
