import Foundation
import Testing

@testable import FeedsCore

/// `JSONValue(parsing:)` reads what `JSONDecoder` reads, to the same values, and refuses what is
/// not JSON.
@Suite struct JSONParsingTests {
    @Test(arguments: [
        "null", "true", "false", "0", "-0", "1", "-2.5", "1e3", "1E-7", "2.5e+20", "123456789012345678",
        #""""#, #""hi""#, #""\"\\\/\b\f\n\r\t""#, #""\u00e9\u2028\ud83d\ude00 é😀""#, "[]", "{}", " [ 1 , \"a\" , null ] ",
        #"{"a":{"b":[1,{"c":[]}]},"d":null,"e":"\u0000"}"#,
    ])
    func readsAsJSONDecoderReads(text: String) throws {
        #expect(try JSONValue(parsing: text) == JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
    }

    @Test func randomValuesRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let value = Self.random(depth: 0, &generator)
            let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
            #expect(try JSONValue(parsing: text) == value, "\(text)")
        }
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", "[1 2]", "01", "1.", ".5", "-", "+1", "1e", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "tru",
        "nul", #"{"a" 1}"#, #"{"a":1,}"#, #"{1:2}"#, "\"\u{01}\"", "[1] x", "\"open", "NaN", "Infinity", "1e999",
    ])
    func refusesWhatIsNotJSON(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test func refusesNestingDeeperThanTheDecoderAccepts() throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(try JSONValue(parsing: fine) != .null)
    }

    static func random(depth: Int, _ generator: inout SystemRandomNumberGenerator) -> JSONValue {
        let scalars: [Unicode.Scalar] = ["a", "Z", "\"", "\\", "/", "\n", "\u{1}", "é", "✓", "😀", "\u{2028}", " "]
        func string() -> String {
            String(String.UnicodeScalarView((0..<Int.random(in: 0...8, using: &generator)).map { _ in scalars.randomElement(using: &generator)! }))
        }
        switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)))
        case 3: return .number(Double.random(in: -1e12...1e12, using: &generator))
        case 4: return .string(string())
        case 5: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in random(depth: depth + 1, &generator) })
        default:
            var object: JSONObject = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) { object[string()] = random(depth: depth + 1, &generator) }
            return .object(object)
        }
    }
}
