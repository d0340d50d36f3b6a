import FeedsCore
import Foundation
import Synchronization

/// Tokens that verified already, so the next requests with the same token skip the HMAC and the
/// JSON of its header and claims (an app sends one token for hours; verifying it was 4% of a feed
/// page). The key is the whole token, so only a token that verified can hit; its time limits are
/// checked again on every hit, and a token past them is verified afresh, which refuses it with
/// the right error. Bounded: when full, it starts over.
final class VerifiedTokens: Sendable {
    struct Entry: Sendable {
        let principal: Principal
        let notBefore: Date?
        let expires: Date?
    }

    let capacity: Int
    private let entries = Mutex<[String: Entry]>([:])

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// Who `token` acts as, if it verified before and is within its time limits at `now`.
    func principal(for token: String, now: Date = Date()) -> Principal? {
        guard let entry = entries.withLock({ $0[token] }) else { return nil }
        // As jwt-kit checks them: expired after `exp`, not valid before `nbf`.
        if let expires = entry.expires, expires < now { return nil }
        if let notBefore = entry.notBefore, now < notBefore { return nil }
        return entry.principal
    }

    func remember(_ token: String, as entry: Entry) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[token] = entry
        }
    }

    var count: Int { entries.withLock(\.count) }
}
