import Testing

@testable import FeedsHTTP

@Suite struct HeaderTextTests {
    @Test(arguments: [
        ("  jwt \t", "jwt"), ("\tapplication/json", "application/json"), ("a b", "a b"), ("", ""), (" \t ", ""),
        ("\u{A0}x\u{A0}", "\u{A0}x\u{A0}"), (" ✓ é ", "✓ é"),
    ])
    func onlySpacesAndTabsAroundTheTextGo(text: String, trimmed: String) {
        #expect(text.trimmingHeaderSpace() == trimmed)
        #expect(text[...].trimmingHeaderSpace() == trimmed)
    }
}
