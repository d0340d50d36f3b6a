import FeedsCore
import Foundation

/// JSON values travel to and from Postgres as text (`$1::jsonb`, `col::text`).
enum JSONText {
    static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    /// Custom data and attachment payloads, the JSON of every create: written without an encoder.
    static func encode(_ object: JSONObject) -> String {
        JSONValue.text(object)
    }

    static func object(_ text: String) throws -> JSONObject {
        // Most custom data is empty: no decoder for that.
        if text == "{}" { return [:] }
        guard case .object(let object) = try JSONValue(parsing: text) else {
            throw JSONParseError(offset: 0, problem: "not an object")
        }
        return object
    }

    static func objects(_ text: String) throws -> [JSONObject] {
        if text == "[]" { return [] }
        guard case .array(let values) = try JSONValue(parsing: text) else {
            throw JSONParseError(offset: 0, problem: "not an array")
        }
        return try values.map { value in
            guard case .object(let object) = value else { throw JSONParseError(offset: 0, problem: "not an array of objects") }
            return object
        }
    }
}
