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

@Suite struct HeaderTokenTests {
    @Test(arguments: [
        ("application/json", "application/json", true), ("Application/JSON", "application/json", true),
        ("MULTIPART/FORM-DATA", "multipart/form-data", true), ("application/jsonx", "application/json", false),
        ("application/jso", "application/json", false), ("", "jwt", false), ("JWT", "jwt", true), ("jwu", "jwt", false),
        // Only ASCII letters fold: "K" (Kelvin sign) is not "k".
        ("\u{212A}", "k", false),
    ])
    func compareWhateverTheirASCIICase(text: String, lowercase: String, equal: Bool) {
        #expect(text[...].equalsIgnoringASCIICase(lowercase) == equal)
    }

    @Test(arguments: [
        ("application/json", "application/json"), (" Application/JSON ; charset=utf-8", "Application/JSON"),
        ("multipart/form-data; boundary=x", "multipart/form-data"), (";", ""), ("", ""),
    ])
    func theMediaTypeIsTheTypeWithoutParameters(contentType: String, media: String) {
        #expect(HandWrittenRoute.mediaType(contentType) == media)
    }
}
