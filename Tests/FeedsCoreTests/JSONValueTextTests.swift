import Foundation
import Testing

@testable import FeedsCore

@Suite struct JSONValueTextTests {
    static let values: [JSONValue] = [
        .null, .bool(true), .bool(false), .number(0), .number(-7), .number(3.25), .number(0.1), .number(-1e-7),
        .number(1e300), .number(123_456_789_012_345), .number(1e15), .string(""), .string("plain"),
        .string("quote \" backslash \\ slash / newline \n tab \t return \r bell \u{7} nul \u{0} \u{1F}"),
        .string("ü ✓ 😀 \u{2028}"), .array([]), .object([:]),
        .array([.null, .number(1), .string("a"), .array([.bool(true)])]),
        .object(["a": .object(["b": .array([.number(1), .object([:])])]), "c": .null, "d\"e": .string("\n")]),
    ]

    /// The text reads back as the same value, and as `JSONEncoder`'s text of it reads.
    @Test(arguments: values)
    func readsBackAsTheValueAndAsTheEncodersText(value: JSONValue) throws {
        let text = value.text
        #expect(try JSONValue(parsing: text) == value)
        let encoded = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        #expect(try JSONValue(parsing: encoded) == JSONValue(parsing: text))
    }

    @Test func isCompactWithWholeNumbersAsIntegersAndShortEscapes() {
        #expect(JSONValue.text(["seq": .number(42)]) == #"{"seq":42}"#)
        #expect(JSONValue.text([:]) == "{}")
        #expect(JSONValue.array([.number(2.5), .number(-0.0), .bool(false), .null]).text == "[2.5,0,false,null]")
        #expect(JSONValue.string("a\"b\\c\nd\u{1}").text == #""a\"b\\c\nd\u0001""#)
    }

    @Test func randomValuesReadBack() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let value = Self.random(depth: 3, &generator)
            #expect(try JSONValue(parsing: value.text) == value)
        }
    }

    static func random(depth: Int, _ generator: inout SystemRandomNumberGenerator) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 6 : 4), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2:
            return .number(
                Bool.random(using: &generator)
                    ? Double(Int.random(in: -1_000_000...1_000_000, using: &generator))
                    : Double.random(in: -1e12...1e12, using: &generator))
        case 3:
            let scalars = (0..<Int.random(in: 0..<12, using: &generator)).map { _ in
                Unicode.Scalar(UInt32.random(in: 0...0x7FF, using: &generator)).map(Character.init) ?? "x"
            }
            return .string(String(scalars))
        case 4: return .array((0..<Int.random(in: 0..<4, using: &generator)).map { _ in random(depth: depth - 1, &generator) })
        default:
            var object: JSONObject = [:]
            for index in 0..<Int.random(in: 0..<4, using: &generator) {
                object["k\(index)\u{1}\""] = random(depth: depth - 1, &generator)
            }
            return .object(object)
        }
    }
}
