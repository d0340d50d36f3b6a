import FeedsCore
import Foundation

/// JSON values travel to and from Postgres as text (`$1::jsonb`, `col::text`).
enum JSONText {
    static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    static func object(_ text: String) throws -> JSONObject {
        // Most custom data is empty: no decoder for that.
        if text == "{}" { return [:] }
        return try JSONDecoder().decode(JSONObject.self, from: Data(text.utf8))
    }

    static func objects(_ text: String) throws -> [JSONObject] {
        if text == "[]" { return [] }
        return try JSONDecoder().decode([JSONObject].self, from: Data(text.utf8))
    }
}
