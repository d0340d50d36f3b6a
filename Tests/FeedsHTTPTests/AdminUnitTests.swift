import FeedsCore
import Foundation
import Testing

@testable import FeedsAdmin
@testable import FeedsHTTP

/// The console's parts that need no server: escaping, form reading, the sign-in slow-down.
@Suite struct AdminUnitTests {
    @Test func interpolatedTextIsEscapedAndMarkupIsNot() {
        let name = #"<a href="x" onclick='y'>&"#
        let html: HTML = "<td title=\"\(name)\">\(name)</td>\(HTML("<br>"))"
        #expect(
            html.description
                == "<td title=\"&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;\">&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;</td><br>"
        )
    }

    @Test func formsAreReadStrictly() throws {
        let form = try FormFields(Array("a=1&b=x+y%2Bz&c=&d".utf8))
        #expect(form["a"] == "1" && form["b"] == "x y+z" && form["c"] == "" && form["d"] == "" && form["e"] == nil)
        #expect(try FormFields(Array("caf%C3%A9=%E2%9C%93".utf8))["café"] == "✓")
        for bad in ["a=1&a=2", "a=%", "a=%4", "a=%zz", "a=%ff", "a=%00", "%ff=1"] {
            #expect(throws: FeedsError.self, "\(bad)") { try FormFields(Array(bad.utf8)) }
        }
        #expect(throws: FeedsError.self) {
            try FormFields(Array(repeating: UInt8(ascii: "a"), count: FormFields.maximumBytes + 1))
        }
    }

    @Test func listsAreTypedWithCommasSpacesOrLines() {
        #expect(RulesForm.entries(" exe, bat\n\ncom ,, tar.gz ") == ["exe", "bat", "com", "tar.gz"])
        #expect(RulesForm.entries("") == [])
        #expect(RulesForm.number(" 42 ") == 42)
        #expect(RulesForm.number("4 2") == -1)
        #expect(RulesForm.number("1e3") == -1)
    }

    @Test func wrongSignInsWaitLongerTakeTurnsAndAreForgotten() {
        let clock = ManualAdminClock()
        let throttle = SignInThrottle(clock: clock)
        func waits(_ count: Int, from source: String) -> [Double] {
            (0..<count).map { _ in
                guard case .proceed(let wait) = throttle.admit(source) else { return -1 }
                clock.advance(by: 20)
                return Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
            }
        }
        #expect(waits(7, from: "a") == [0, 0.5, 1, 2, 4, 8, 8])
        #expect(waits(1, from: "b") == [0], "another address is not slowed")
        throttle.succeeded("a")
        #expect(waits(2, from: "a") == [0, 0.5], "a success clears it")
        clock.advance(by: 15 * 60)
        #expect(waits(1, from: "a") == [0], "quiet for 15 minutes: forgotten")

        // Attempts at once take turns; past 30 s of queue one is told when to come back.
        let burst = (0..<8).map { _ in throttle.admit("c") }
        #expect(
            Array(burst.prefix(7)) == [0, 0.5, 1.5, 3.5, 7.5, 15.5, 23.5].map { .proceed(after: .milliseconds(Int($0 * 1000))) })
        #expect(burst[7] == .refused(retryAfterSeconds: 24))
        clock.advance(by: 24)
        #expect(throttle.admit("c") == .proceed(after: .seconds(8)))
    }
}
