import NIOConcurrencyHelpers
import NIOCore

/// Connections to the WebSocket port that have not authenticated yet, with a budget of their own
/// so that a flood of them never keeps a real client out: at most `perAddress` from one address
/// (one more is closed at once), and at most `limit` in all, past which the oldest is closed to
/// make room. A socket leaves the budget when it authenticates, or closes.
package final class PendingSockets: Sendable {
    package let limit: Int
    package let perAddress: Int

    private struct State {
        package var order: [ObjectIdentifier] = []
        package var entries: [ObjectIdentifier: (channel: any Channel, address: String)] = [:]
        package var byAddress: [String: Int] = [:]

        package mutating func remove(_ id: ObjectIdentifier) -> (any Channel)? {
            guard let entry = entries.removeValue(forKey: id) else { return nil }
            order.removeAll { $0 == id }
            byAddress[entry.address, default: 1] -= 1
            if byAddress[entry.address] == 0 { byAddress[entry.address] = nil }
            return entry.channel
        }
    }

    private let state = NIOLockedValueBox(State())

    package init(limit: Int, perAddress: Int) {
        self.limit = limit
        self.perAddress = perAddress
    }

    /// Counts a new connection; false when its address has its fill (close it). Closes the oldest
    /// pending connection when the budget is full.
    package func admit(_ channel: any Channel) -> Bool {
        let address = channel.remoteAddress?.ipAddress ?? "unknown"
        let id = ObjectIdentifier(channel)
        let (admitted, evicted) = state.withLockedValue { state -> (Bool, (any Channel)?) in
            guard state.byAddress[address, default: 0] < perAddress else { return (false, nil) }
            let evicted = state.entries.count >= limit ? state.order.first.flatMap { state.remove($0) } : nil
            state.order.append(id)
            state.entries[id] = (channel, address)
            state.byAddress[address, default: 0] += 1
            return (true, evicted)
        }
        guard admitted else { return false }
        channel.closeFuture.whenComplete { [self] _ in done(channel) }
        evicted?.close(promise: nil)
        return true
    }

    /// The connection authenticated (or closed): it no longer counts.
    package func done(_ channel: any Channel) {
        state.withLockedValue { _ = $0.remove(ObjectIdentifier(channel)) }
    }

    /// Closes the oldest pending connection other than `channel`, to make room; false when there is none.
    package func evictOldest(besides channel: any Channel) -> Bool {
        let id = ObjectIdentifier(channel)
        let evicted = state.withLockedValue { state in state.order.first { $0 != id }.flatMap { state.remove($0) } }
        evicted?.close(promise: nil)
        return evicted != nil
    }
}
