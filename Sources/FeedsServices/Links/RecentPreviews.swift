import FeedsCore
import Foundation
import NIOConcurrencyHelpers

/// The previews this node read last, for a few minutes, so that a preview many clients ask for
/// (a link in a popular post) answers from memory, with no query. At most `capacity` are kept:
/// when full, the expired go, then the quarter nearest to expiring.
package final class RecentPreviews: Sendable {
    private let entries = NIOLockedValueBox<[String: (preview: LinkPreview, until: Date)]>([:])
    let capacity: Int
    let lifetime: TimeInterval
    let now: @Sendable () -> Date

    package init(capacity: Int = 10_000, lifetime: TimeInterval = 300, now: @escaping @Sendable () -> Date = Date.init) {
        (self.capacity, self.lifetime, self.now) = (capacity, lifetime, now)
    }

    package subscript(url: String) -> LinkPreview? {
        let now = now()
        return entries.withLockedValue { entries in
            guard let entry = entries[url] else { return nil }
            guard entry.until > now else {
                entries[url] = nil
                return nil
            }
            return entry.preview
        }
    }

    package func keep(_ preview: LinkPreview) {
        guard lifetime > 0 else { return }
        let now = now()
        entries.withLockedValue { entries in
            if entries.count >= capacity, entries[preview.scrapeURL] == nil {
                entries = entries.filter { $0.value.until > now }
                if entries.count >= capacity {
                    let soonest = entries.sorted { $0.value.until < $1.value.until }.prefix(max(1, capacity / 4))
                    for (url, _) in soonest { entries[url] = nil }
                }
            }
            entries[preview.scrapeURL] = (preview, now.addingTimeInterval(lifetime))
        }
    }

    package var count: Int { entries.withLockedValue { $0.count } }
}
