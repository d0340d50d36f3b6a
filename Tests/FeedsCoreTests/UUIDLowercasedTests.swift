import Foundation
import Testing

@testable import FeedsCore

@Suite struct UUIDLowercasedTests {
    @Test func isTheCanonicalSpellingInLowerCase() {
        for _ in 0..<1000 {
            let uuid = UUID()
            #expect(uuid.lowercasedString == uuid.uuidString.lowercased())
        }
        let fixed = UUID(uuidString: "00FF10AB-C0DE-4A5B-9F00-ABCDEF012345")!
        #expect(fixed.lowercasedString == "00ff10ab-c0de-4a5b-9f00-abcdef012345")
    }
}
