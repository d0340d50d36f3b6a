import FeedsCore
import Foundation

/// An `application/x-www-form-urlencoded` body, read strictly: every name at most once, valid
/// percent-encoding and UTF-8, a bounded size. A hostile form is refused, never half-read.
package struct FormFields: Sendable {
    /// The most bytes a console form may send: the longest is the rules form, a few KB.
    package static let maximumBytes = 64 << 10

    private var values: [String: String] = [:]

    /// No fields: a request that sent no form.
    package static let empty = FormFields()

    private init() {}

    package init(_ body: [UInt8]) throws(FeedsError) {
        guard body.count <= Self.maximumBytes else {
            throw FeedsError(.payloadTooLarge, "the form is larger than \(Self.maximumBytes) bytes")
        }
        for pair in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0])
            let value = parts.count > 1 ? try Self.decode(parts[1]) : ""
            guard values[name] == nil else { throw FeedsError.input("the field \(name) was sent more than once", field: name) }
            values[name] = value
        }
    }

    /// A field's value, nil when it was not sent.
    package subscript(name: String) -> String? { values[name] }

    /// A field that must be there.
    package func required(_ name: String) throws(FeedsError) -> String {
        guard let value = values[name] else { throw FeedsError.input("the field \(name) is missing", field: name) }
        return value
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) throws(FeedsError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { throw FeedsError.input("the form is not valid URL encoding") }
                out.append(high << 4 | low)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        guard let text = String(validating: out, as: UTF8.self), !text.contains("\u{0}") else {
            throw FeedsError.input("the form is not valid UTF-8 text")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
