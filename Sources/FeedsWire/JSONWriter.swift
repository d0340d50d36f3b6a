import FeedsCore
import Foundation
import NIOCore

/// Compact JSON written straight into a `ByteBuffer`, for the responses sent most (feed pages,
/// new activities): the same JSON Foundation's encoder makes of the generated `Codable` types,
/// without building anything in between.
///
/// One flag keeps the commas right: a container starts empty, a key or element after the first
/// is preceded by a comma, and a closed container is a value of the one around it.
package struct JSONWriter {
    package private(set) var buffer: ByteBuffer
    private var empty = true
    /// Feeds written so far, by id and reader: a page's activities mostly share one `current_feed`.
    var writtenFeeds: [String: [UInt8]] = [:]

    package init(capacity: Int = 4096) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    /// What was written, as bytes.
    package var bytes: [UInt8] { Array(buffer.readableBytesView) }

    // MARK: Containers

    package mutating func object(_ body: (inout JSONWriter) throws -> Void) rethrows {
        openObject()
        try body(&self)
        closeObject()
    }

    /// `object(_:)` without its closure, for a writer the closure made copy what it captured.
    mutating func openObject() {
        buffer.writeInteger(UInt8(ascii: "{"))
        empty = true
    }

    mutating func closeObject() {
        buffer.writeInteger(UInt8(ascii: "}"))
        empty = false
    }

    package mutating func array<Elements: Sequence>(
        _ elements: Elements, _ write: (inout JSONWriter, Elements.Element) throws -> Void
    ) rethrows {
        buffer.writeInteger(UInt8(ascii: "["))
        empty = true
        for element in elements {
            separate()
            try write(&self, element)
        }
        buffer.writeInteger(UInt8(ascii: "]"))
        empty = false
    }

    /// An array's elements lent, not copied: an activity is two dozen references to retain and
    /// release, and a notification page writes 250 of them.
    package mutating func array<Element>(_ elements: [Element], _ write: (inout JSONWriter, Element) throws -> Void) rethrows {
        buffer.writeInteger(UInt8(ascii: "["))
        empty = true
        for index in elements.indices {
            separate()
            try write(&self, elements[index])
        }
        buffer.writeInteger(UInt8(ascii: "]"))
        empty = false
    }

    /// `"name":`; names are our own literals, which need no escaping. One write into the buffer,
    /// comma included: keys are a third of a page's bytes.
    package mutating func key(_ name: StaticString) {
        let comma = !empty
        empty = false
        let count = name.utf8CodeUnitCount
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count + 4) { output in
            var at = 0
            if comma {
                output[0] = UInt8(ascii: ",")
                at = 1
            }
            output[at] = UInt8(ascii: "\"")
            UnsafeMutableRawBufferPointer(rebasing: output[(at + 1)...])
                .copyMemory(from: UnsafeRawBufferPointer(start: name.utf8Start, count: count))
            output[at + 1 + count] = UInt8(ascii: "\"")
            output[at + 2 + count] = UInt8(ascii: ":")
            return at + 3 + count
        }
    }

    /// A key from data (custom fields), escaped.
    package mutating func key(_ name: String) {
        separate()
        string(name)
        buffer.writeInteger(UInt8(ascii: ":"))
    }

    private mutating func separate() {
        if !empty { buffer.writeInteger(UInt8(ascii: ",")) }
        empty = false
    }

    // MARK: Values

    package mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { bytes in
            if !bytes.contains(where: JSONEscape.needed) {
                // The common case, in one write.
                buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: bytes.count + 2) { output in
                    output[0] = UInt8(ascii: "\"")
                    UnsafeMutableRawBufferPointer(rebasing: output[1...]).copyMemory(from: UnsafeRawBufferPointer(bytes))
                    output[bytes.count + 1] = UInt8(ascii: "\"")
                    return bytes.count + 2
                }
                return
            }
            buffer.writeInteger(UInt8(ascii: "\""))
            var start = 0
            for (index, byte) in bytes.enumerated() where JSONEscape.needed(byte) {
                buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<index])))
                buffer.writeBytes(JSONEscape.sequence(for: byte))
                start = index + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start...])))
            buffer.writeInteger(UInt8(ascii: "\""))
        }
    }

    /// A whole value written before, as it was.
    package mutating func raw(_ bytes: [UInt8]) {
        buffer.writeBytes(bytes)
        empty = false
    }

    /// JSON text written elsewhere (the database's), as it is.
    package mutating func raw(_ text: String) {
        buffer.writeString(text)
        empty = false
    }

    package mutating func number(_ value: Int) {
        integer(Int64(value))
    }

    /// Decimal digits written in place, without a `String` for each count and time.
    private mutating func integer(_ value: Int64) {
        if value >= 0, value < 10 {
            buffer.writeInteger(UInt8(ascii: "0") &+ UInt8(value))
            return
        }
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 20) { output in
            var magnitude = value.magnitude
            var digits = 0
            repeat {
                digits += 1
                magnitude /= 10
            } while magnitude > 0
            let sign = value < 0 ? 1 : 0
            if sign == 1 { output[0] = UInt8(ascii: "-") }
            magnitude = value.magnitude
            for at in stride(from: sign + digits - 1, through: sign, by: -1) {
                output[at] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                magnitude /= 10
            }
            return sign + digits
        }
    }

    /// Fields whose values never change, written as one run: `"a":[],"b":0`.
    package mutating func constantFields(_ run: StaticString) {
        separate()
        buffer.writeStaticString(run)
    }

    package mutating func bool(_ value: Bool) {
        buffer.writeStaticString(value ? "true" : "false")
    }

    /// A time as Stream sends it: an integer of nanoseconds since 1970 (`WireTime`).
    package mutating func date(_ value: Date) {
        integer(WireTime.nanoseconds(value))
    }

    /// Custom data and attachment payloads, as `JSONValue.text` writes them for PostgreSQL.
    package mutating func value(_ value: JSONValue) {
        buffer.writeString(value.text)
        empty = false
    }

    package mutating func object(_ fields: JSONObject) {
        buffer.writeString(JSONValue.text(fields))
        empty = false
    }

    package mutating func strings(_ values: [String]) {
        array(values) { $0.string($1) }
    }

    // MARK: Fields

    package mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    /// Left out when nil, as the generated types leave out an absent optional.
    package mutating func field(_ name: StaticString, _ value: String?) {
        if let value { field(name, value) }
    }

    package mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        number(value)
    }

    package mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    package mutating func field(_ name: StaticString, _ value: Date) {
        key(name)
        date(value)
    }

    package mutating func field(_ name: StaticString, _ value: Date?) {
        if let value { field(name, value) }
    }

    /// `"name":[]` or `"name":{}`: the many collections the reference requires and we keep empty.
    package mutating func emptyArray(_ name: StaticString) {
        key(name)
        buffer.writeStaticString("[]")
    }

    package mutating func emptyObject(_ name: StaticString) {
        key(name)
        buffer.writeStaticString("{}")
    }
}
