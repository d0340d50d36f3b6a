import FeedsCore
import OpenAPIRuntime

/// Free-form JSON (custom data) moved between our `JSONValue` and the OpenAPI runtime's
/// containers directly. (Through JSON text, as `recode` does, it took a tenth of a feed page.)
package enum FreeForm {
    package static func containers(_ object: JSONObject) throws -> [String: OpenAPIValueContainer] {
        try object.mapValues { try OpenAPIValueContainer(unvalidatedValue: $0.runtimeValue) }
    }

    package static func object(_ containers: [String: OpenAPIValueContainer]) throws -> JSONObject {
        try containers.mapValues { try JSONValue(runtimeValue: $0.value) }
    }
}

extension JSONValue {
    /// The value as the runtime holds it: whole numbers as `Int`, as decoding JSON gives them.
    package var runtimeValue: (any Sendable)? {
        switch self {
        case .null: nil
        case .bool(let value): value
        case .number(let value): value.wholeNumber ?? value
        case .string(let value): value
        case .array(let values): values.map(\.runtimeValue)
        case .object(let values): values.mapValues(\.runtimeValue)
        }
    }

    package init(runtimeValue value: (any Sendable)?) throws {
        switch value {
        case nil: self = .null
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .number(Double(value))
        case let value as Double: self = .number(value)
        case let value as String: self = .string(value)
        case let values as [(any Sendable)?]: self = .array(try values.map(JSONValue.init(runtimeValue:)))
        case let values as [String: (any Sendable)?]: self = .object(try values.mapValues(JSONValue.init(runtimeValue:)))
        default: throw FeedsError(.internal, "\(type(of: value)) is not a JSON value")
        }
    }
}
