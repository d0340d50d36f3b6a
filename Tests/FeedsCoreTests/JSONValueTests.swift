import Foundation
import Testing

@testable import FeedsCore

@Suite struct JSONValueTests {
    @Test(arguments: [
        ("null", JSONValue.null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("1", .number(1)),
        ("0", .number(0)),
        ("-2.5", .number(-2.5)),
        ("\"hi\"", .string("hi")),
        ("[]", .array([])),
        ("[1,\"a\",null,[true]]", .array([.number(1), .string("a"), .null, .array([.bool(true)])])),
        ("{}", .object([:])),
        ("{\"a\":{\"b\":[1]},\"c\":null}", .object(["a": .object(["b": .array([.number(1)])]), "c": .null])),
    ])
    func decodes(json: String, value: JSONValue) throws {
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)) == value)
    }

    @Test(arguments: [
        JSONValue.null, .bool(true), .number(3.25), .string("ü\"\\"), .array([.null, .number(1)]),
        .object(["x": .object(["y": .array([.string("z"), .bool(false)])])]),
    ])
    func roundTrips(value: JSONValue) throws {
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }

    @Test func encodesNullAsJSONNull() throws {
        let data = try JSONEncoder().encode(["k": JSONValue.null])
        #expect(String(decoding: data, as: UTF8.self) == "{\"k\":null}")
    }
}
