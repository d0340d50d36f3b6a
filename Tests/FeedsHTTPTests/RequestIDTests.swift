import Foundation
import HTTPTypes
import Testing

@testable import FeedsHTTP

@Suite struct RequestIDTests {
    @Test func newIDsAreUUIDShapedAndUniqueAcrossThreads() async {
        let ids = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 { group.addTask { (0..<1000).map { _ in RequestID.make() } } }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(Set(ids).count == 8000)
        for id in ids.prefix(50) {
            #expect(UUID(uuidString: id)?.lowercasedString == id)
        }
        // One process's ids share their first half and count in the second.
        #expect(Set(ids.map { $0.prefix(18) }).count == 1)
    }

    @Test func theClientsIDIsKeptWhenItIsASensibleLength() {
        #expect(RequestID.of([RequestID.header: "trace-me"]) == "trace-me")
        #expect(RequestID.of([RequestID.header: String(repeating: "x", count: 129)]).count == 36)
        #expect(RequestID.of([:]).count == 36)
    }
}
