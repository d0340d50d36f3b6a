import FeedsCore
import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// This node's WebSocket clients and the feeds each watches: events go to the watchers of their
/// feeds that may see them. A client's messages queue in a bounded stream its socket drains; a
/// client too slow to keep up is closed, and re-syncs when it reconnects (as the SDKs do).
public final class RealtimeHub: Sendable {
    /// What a socket's writer is told to do.
    public enum Outgoing: Sendable, Equatable {
        /// One buffer, shared by every socket it goes to (a `ByteBuffer` is copied on write only).
        case text(ByteBuffer)
        /// Close with this WebSocket code and reason, after what queued before.
        case close(code: UInt16, reason: String)
    }

    /// Messages a client may have queued before it counts as too slow.
    static let queueLimit = 1_000
    /// WebSocket close code 1012 (service restart): reconnect, and read again what may be missed.
    public static let resyncCode: UInt16 = 1012

    struct Client {
        let userID: String
        let sink: AsyncStream<Outgoing>.Continuation
        var watching: Set<String> = []
    }

    struct State {
        var clients: [String: Client] = [:]
        var watchers: [String: Set<String>] = [:]
    }

    private let state = NIOLockedValueBox(State())
    /// Names this node's connections, so that another node's are told apart.
    let node = UUID().uuidString.prefix(8).lowercased()

    public init() {}

    /// The number of connected clients.
    public var count: Int { state.withLockedValue { $0.clients.count } }

    /// A new client of `userID`: its connection id, and the messages to write to it.
    func connect(userID: String) -> (id: String, messages: AsyncStream<Outgoing>) {
        let id = "\(node)-\(UUID().lowercasedString)"
        let (stream, sink) = AsyncStream.makeStream(of: Outgoing.self, bufferingPolicy: .bufferingOldest(Self.queueLimit))
        state.withLockedValue { $0.clients[id] = Client(userID: userID, sink: sink) }
        return (id, stream)
    }

    func disconnect(_ id: String) {
        let client = state.withLockedValue { state -> Client? in
            guard let client = state.clients.removeValue(forKey: id) else { return nil }
            for fid in client.watching { state.unwatch(fid, by: id) }
            return client
        }
        client?.sink.finish()
    }

    public enum WatchOutcome: Sendable { case done, notYours, elsewhere, tooMany }

    /// Feeds one connection may watch at once.
    public static let watchLimit = 1_000

    /// Starts (or stops) sending `fid`'s events to the connection, if it is this node's and its
    /// user's.
    @discardableResult
    public func watch(connectionID: String, fid: String, userID: String, on: Bool) -> WatchOutcome {
        state.withLockedValue { state in
            guard var client = state.clients[connectionID] else { return .elsewhere }
            guard client.userID == userID else { return .notYours }
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

    /// Hands each event to the watchers of its feeds that may see it, once per watcher and feed.
    public func deliver(_ events: [FeedEvent]) {
        var slow: [String] = []
        state.withLockedValue { state in
            for event in events {
                for fid in event.fids {
                    guard let watchers = state.watchers[fid] else { continue }
                    var message: ByteBuffer?
                    for id in watchers {
                        guard let client = state.clients[id] else { continue }
                        if let only = event.onlyFor, only != client.userID { continue }
                        if message == nil { message = ByteBuffer(bytes: event.message(for: fid)) }
                        if case .dropped = client.sink.yield(.text(message!)) { slow.append(id) }
                    }
                }
            }
        }
        for id in slow { close(id, code: Self.resyncCode, reason: "too slow to keep up; reconnect and re-sync") }
    }

    /// Queues a message for one client.
    func send(_ id: String, _ message: Outgoing) {
        state.withLockedValue { $0.clients[id] }?.sink.yield(message)
    }

    /// Sends every client a health check (its own, with its connection id).
    func healthCheckAll(now: Date) {
        let clients = state.withLockedValue { $0.clients }
        for (id, client) in clients {
            client.sink.yield(.text(ByteBuffer(bytes: RealtimeMessages.healthCheck(connectionID: id, at: now))))
        }
    }

    /// Closes every client: their events may have been missed, so they reconnect and re-sync.
    public func resyncAll(reason: String) {
        let ids = state.withLockedValue { Array($0.clients.keys) }
        for id in ids { close(id, code: Self.resyncCode, reason: reason) }
    }

    func close(_ id: String, code: UInt16, reason: String) {
        guard let client = state.withLockedValue({ $0.clients[id] }) else { return }
        // Past a full queue: finishing the stream ends the writer, which closes the socket.
        if case .dropped = client.sink.yield(.close(code: code, reason: reason)) { client.sink.finish() }
    }
}

extension RealtimeHub.State {
    mutating func unwatch(_ fid: String, by id: String) {
        watchers[fid]?.remove(id)
        if watchers[fid]?.isEmpty == true { watchers[fid] = nil }
    }
}
