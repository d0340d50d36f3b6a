import FeedsCore
import Foundation

/// JSON values travel to and from Postgres as text (`$1::jsonb`, `col::text`).
enum JSONText {
    static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    static func object(_ text: String) throws -> JSONObject {
        try JSONDecoder().decode(JSONObject.self, from: Data(text.utf8))
    }

    static func objects(_ text: String) throws -> [JSONObject] {
        try JSONDecoder().decode([JSONObject].self, from: Data(text.utf8))
    }
}
