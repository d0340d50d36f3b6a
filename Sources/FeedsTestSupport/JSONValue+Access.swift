import FeedsCore
import Foundation

/// Terse reads of response bodies in tests: `body["activity"]["id"].string`.
extension JSONValue {
    public subscript(key: String) -> JSONValue {
        if case .object(let object) = self { object[key] ?? .null } else { .null }
    }

    public subscript(index: Int) -> JSONValue {
        if case .array(let array) = self, array.indices.contains(index) { array[index] } else { .null }
    }

    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var int: Int? { if case .number(let value) = self { Int(exactly: value) } else { nil } }
    public var double: Double? { if case .number(let value) = self { value } else { nil } }
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var array: [JSONValue] { if case .array(let value) = self { value } else { [] } }
    public var object: JSONObject? { if case .object(let value) = self { value } else { nil } }
    public var isNull: Bool { self == .null }
    /// A response's time: an integer of nanoseconds since 1970, as Stream sends times.
    public var time: Date? { if case .number = self { WireTime.date(from: self) } else { nil } }
}
