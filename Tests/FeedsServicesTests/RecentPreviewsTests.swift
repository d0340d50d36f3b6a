import FeedsCore
import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import FeedsServices

/// A node remembers the previews it read for its lifetime, and never more than its capacity.
@Suite struct RecentPreviewsTests {
    final class Clock: Sendable {
        let now = NIOLockedValueBox(Date(timeIntervalSince1970: 1_000_000))
        func advance(_ seconds: TimeInterval) { now.withLockedValue { $0 += seconds } }
    }

    @Test func aPreviewIsRememberedForItsLifetime() {
        let clock = Clock()
        let recent = RecentPreviews(capacity: 10, lifetime: 300, now: { clock.now.withLockedValue { $0 } })
        recent.keep(LinkPreview(title: "A", scrapeURL: "https://a.example/"))
        clock.advance(299)
        #expect(recent["https://a.example/"]?.title == "A")
        clock.advance(1)
        #expect(recent["https://a.example/"] == nil && recent.count == 0)

        let off = RecentPreviews(lifetime: 0)
        off.keep(LinkPreview(title: "A", scrapeURL: "https://a.example/"))
        #expect(off["https://a.example/"] == nil && off.count == 0)
    }

    @Test func aFullMemoryLetsTheSoonestToExpireGo() {
        let clock = Clock()
        let recent = RecentPreviews(capacity: 8, lifetime: 300, now: { clock.now.withLockedValue { $0 } })
        for index in 0..<8 {
            recent.keep(LinkPreview(scrapeURL: "https://\(index).example/"))
            clock.advance(1)
        }
        recent.keep(LinkPreview(scrapeURL: "https://new.example/"))
        #expect(recent.count == 7)
        #expect(recent["https://0.example/"] == nil && recent["https://1.example/"] == nil)
        #expect(recent["https://2.example/"] != nil && recent["https://new.example/"] != nil)
        // Ten thousand more never grow it past its capacity.
        for index in 0..<10_000 { recent.keep(LinkPreview(scrapeURL: "https://more-\(index).example/")) }
        #expect(recent.count <= 8)
    }
}
