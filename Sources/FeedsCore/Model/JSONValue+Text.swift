/// JSON text of a value, compact: custom data and attachment payloads as PostgreSQL reads them
/// (`jsonb` bound as text) and as `JSONWriter` sends them, without `JSONEncoder` setting itself
/// up for a few bytes.
extension JSONValue {
    public var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func text(_ object: JSONObject) -> String {
        object.isEmpty ? "{}" : JSONValue.object(object).text
    }

    private func write(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value): bytes.append(contentsOf: value.jsonText.utf8)
        case .string(let value): Self.write(value, to: &bytes)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                value.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let fields):
            bytes.append(UInt8(ascii: "{"))
            for (index, (name, value)) in fields.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.write(name, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                value.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static func write(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        if !string.utf8.contains(where: JSONEscape.needed) {
            bytes.append(contentsOf: string.utf8)  // the common case, in one copy
        } else {
            for byte in string.utf8 {
                if JSONEscape.needed(byte) {
                    bytes.append(contentsOf: JSONEscape.sequence(for: byte))
                } else {
                    bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// What JSON strings must escape, and how: the one rule of every JSON text written here.
public enum JSONEscape {
    /// Quotes, backslashes and control characters.
    @inlinable public static func needed(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// The escape of a byte that `needed` says must be escaped: the short form where JSON has one.
    public static func sequence(for byte: UInt8) -> [UInt8] {
        switch byte {
        case UInt8(ascii: "\""): Array(#"\""#.utf8)
        case UInt8(ascii: "\\"): Array(#"\\"#.utf8)
        case UInt8(ascii: "\n"): Array(#"\n"#.utf8)
        case UInt8(ascii: "\r"): Array(#"\r"#.utf8)
        case UInt8(ascii: "\t"): Array(#"\t"#.utf8)
        case 0x08: Array(#"\b"#.utf8)
        case 0x0C: Array(#"\f"#.utf8)
        default: Array(#"\u00"#.utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
        }
    }
}

/// Lower-case hexadecimal digits, by value.
let hexDigits = Array("0123456789abcdef".utf8)

extension Double {
    /// The value as an `Int` when it is a whole number the generated types send as one (as JSON
    /// decoding gives them), else nil.
    public var wholeNumber: Int? {
        rounded() == self && abs(self) < 1e15 ? Int(self) : nil
    }

    /// As JSON: whole numbers as integers, others in Swift's shortest form that reads back exactly.
    public var jsonText: String {
        wholeNumber.map(String.init) ?? description
    }
}
