/// JSON text read straight into a `JSONValue`. Reading stored custom data through `JSONDecoder`
/// (which tries each case of `JSONValue` in turn, and throws on every miss) took a tenth of a feed
/// page; this reads each byte once.
extension JSONValue {
    public init(parsing text: String) throws {
        var text = text
        self = try text.withUTF8 { bytes in
            var parser = JSONParser(bytes: bytes)
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.at == bytes.count else { throw parser.error("unexpected text after the value") }
            return value
        }
    }
}

public struct JSONParseError: Error, CustomStringConvertible {
    public let offset: Int
    public let problem: String

    public init(offset: Int, problem: String) {
        self.offset = offset
        self.problem = problem
    }

    public var description: String { "invalid JSON at byte \(offset): \(problem)" }
}

private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    /// As deep as `JSONDecoder` goes; nothing deeper was ever accepted, so nothing deeper is stored.
    static let maximumDepth = 512

    func error(_ problem: String) -> JSONParseError { JSONParseError(offset: at, problem: problem) }

    mutating func skipWhitespace() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 {
            at += 1
        }
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nested too deeply") }
        skipWhitespace()
        guard at < bytes.count else { throw error("a value is missing") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return .object(try object(depth: depth))
        case UInt8(ascii: "["): return .array(try array(depth: depth))
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    mutating func object(depth: Int) throws -> JSONObject {
        at += 1
        var fields: JSONObject = [:]
        skipWhitespace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
            at += 1
            return fields
        }
        while true {
            skipWhitespace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw error("a key is missing") }
            let key = try string()
            skipWhitespace()
            try expect(":")
            fields[key] = try value(depth: depth + 1)
            skipWhitespace()
            if try separator(closing: "}") { return fields }
        }
    }

    mutating func array(depth: Int) throws -> [JSONValue] {
        at += 1
        var values: [JSONValue] = []
        skipWhitespace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
            at += 1
            return values
        }
        while true {
            values.append(try value(depth: depth + 1))
            skipWhitespace()
            if try separator(closing: "]") { return values }
        }
    }

    /// After a member: true at the closing bracket, false after a comma.
    mutating func separator(closing: Unicode.Scalar) throws -> Bool {
        guard at < bytes.count else { throw error("\"\(closing)\" is missing") }
        let byte = bytes[at]
        at += 1
        if byte == UInt8(ascii: closing) { return true }
        if byte == UInt8(ascii: ",") { return false }
        throw error("expected \",\" or \"\(closing)\"")
    }

    mutating func expect(_ scalar: Unicode.Scalar) throws {
        guard at < bytes.count, bytes[at] == UInt8(ascii: scalar) else { throw error("expected \"\(scalar)\"") }
        at += 1
    }

    mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard at + count <= bytes.count,
            word.withUTF8Buffer({ $0.elementsEqual(UnsafeBufferPointer(rebasing: bytes[at..<(at + count)])) })
        else { throw error("expected \(word)") }
        at += count
    }

    /// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, checked, then converted by the standard library.
    mutating func number() throws -> Double {
        let start = at
        func digits() -> Int {
            let first = at
            while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
            return at - first
        }
        func next(_ scalar: Unicode.Scalar) -> Bool {
            guard at < bytes.count, bytes[at] == UInt8(ascii: scalar) else { return false }
            at += 1
            return true
        }
        _ = next("-")
        let whole = at
        var valid = digits() > 0 && !(bytes[whole] == UInt8(ascii: "0") && at - whole > 1)
        if valid, next(".") { valid = digits() > 0 }
        if valid, next("e") || next("E") {
            _ = next("+") || next("-")
            valid = digits() > 0
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
        guard valid, let value = Double(text), value.isFinite else {
            at = start
            throw error("not a JSON value")
        }
        return value
    }

    mutating func string() throws -> String {
        at += 1
        let start = at
        // Most strings have no escapes: one scan, one copy.
        while at < bytes.count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\") {
            guard bytes[at] >= 0x20 else { throw error("a control character in a string") }
            at += 1
        }
        guard at < bytes.count else { throw error("a string is not closed") }
        if bytes[at] == UInt8(ascii: "\"") {
            at += 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(at - 1)]), as: UTF8.self)
        }
        var unescaped = Array(bytes[start..<at])
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: unescaped, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try unescape(into: &unescaped)
            case ..<0x20:
                at -= 1
                throw error("a control character in a string")
            default:
                unescaped.append(byte)
            }
        }
        throw error("a string is not closed")
    }

    mutating func unescape(into output: inout [UInt8]) throws {
        guard at < bytes.count else { throw error("an escape is cut short") }
        let byte = bytes[at]
        at += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate takes the low one that must follow.
                guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                    throw error("a lone surrogate")
                }
                at += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("a lone surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("not a character") }
            UTF8.encode(unicode) { output.append($0) }
        default:
            throw error("an unknown escape")
        }
    }

    mutating func hex4() throws -> UInt32 {
        guard at + 4 <= bytes.count else { throw error("an escape is cut short") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt8 =
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
                default: throw error("not a hex digit")
                }
            value = value << 4 | UInt32(digit)
            at += 1
        }
        return value
    }
}
