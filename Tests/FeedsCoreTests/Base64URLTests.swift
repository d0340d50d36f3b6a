import Foundation
import Testing

@testable import FeedsCore

@Suite struct Base64URLTests {
    /// Foundation's decoding of the same text turned into padded standard base64.
    static func foundation(_ text: String) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }

    @Test func everyLengthRoundTripsAndDecodesAsFoundationDoes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == Data(bytes))
            #expect(Base64URL.decode(ArraySlice(text.utf8)) == bytes)
            #expect(Self.foundation(text) == Data(bytes))
        }
    }

    @Test(arguments: ["a", "abcde", "ab=", "ab+c", "ab/c", "ab c", "abc\n", "é", "abcd=", "a.b"])
    func textOutsideTheAlphabetOrOfNoEncodedLengthIsRefused(text: String) {
        #expect(Base64URL.decode(text) == nil)
        #expect(Base64URL.decode(ArraySlice(text.utf8)) == nil)
    }

    @Test func aSliceOfALargerArrayDecodesOnlyItsOwnBytes() {
        let token = Array("eyJhIjoxfQ.c2lnbmF0dXJl".utf8)
        let dot = token.firstIndex(of: UInt8(ascii: "."))!
        #expect(Base64URL.decode(token[..<dot]).map { String(decoding: $0, as: UTF8.self) } == #"{"a":1}"#)
        #expect(Base64URL.decode(token[(dot + 1)...]).map { String(decoding: $0, as: UTF8.self) } == "signature")
    }
}
