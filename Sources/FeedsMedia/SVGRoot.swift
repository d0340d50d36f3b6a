import Foundation

/// Tells SVG documents apart from other text by their root element, for the cases libmagic misses.
///
/// Only the prolog is skipped (a byte-order mark, blanks, the XML declaration, processing
/// instructions, comments and a `DOCTYPE`, internal subset included); the first element must then
/// be `<svg`. An HTML page that merely contains an `<svg>` stays HTML, and `text/html` is never
/// re-read, so this can only turn harmless text into SVG, never hide active content.
enum SVGRoot {
    /// How much of the file is read: enough for long comments and DOCTYPEs with entity declarations.
    static let prologLimit = 64 * 1024

    /// Whether libmagic's answer may be an SVG document it did not recognise.
    static func mayHide(in type: String) -> Bool {
        type == "text/plain" || type == "text/xml" || type == "application/xml" || type == "image/svg"
    }

    /// Whether the file's root element is `<svg`; false when it cannot be read.
    static func isRoot(ofFileAt path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: prologLimit) else { return false }
        return isRoot(of: [UInt8](data))
    }

    /// Whether `bytes`, the start of a document, has `<svg` as its root element.
    static func isRoot(of bytes: [UInt8]) -> Bool {
        var scanner = Scanner(bytes: bytes)
        scanner.skip(prefix: [0xEF, 0xBB, 0xBF])
        while true {
            scanner.skipBlanks()
            if scanner.skip(prefix: Array("<?".utf8)) {
                guard scanner.skip(past: Array("?>".utf8)) else { return false }
            } else if scanner.skip(prefix: Array("<!--".utf8)) {
                guard scanner.skip(past: Array("-->".utf8)) else { return false }
            } else if scanner.skip(prefix: Array("<!".utf8), caseInsensitive: true) {
                guard scanner.skipDeclaration() else { return false }
            } else {
                return scanner.skip(prefix: Array("<svg".utf8)) && scanner.atNameEnd
            }
        }
    }

    /// A cursor over the bytes of a document's prolog.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// Whether the element name just read ends here (a blank, `>` or `/`).
        var atNameEnd: Bool {
            guard index < bytes.count else { return false }
            return isBlank(bytes[index]) || bytes[index] == UInt8(ascii: ">") || bytes[index] == UInt8(ascii: "/")
        }

        mutating func skipBlanks() {
            while index < bytes.count, isBlank(bytes[index]) { index += 1 }
        }

        /// Moves past `prefix` when the bytes continue with it.
        @discardableResult
        mutating func skip(prefix: [UInt8], caseInsensitive: Bool = false) -> Bool {
            guard bytes.count - index >= prefix.count else { return false }
            for (offset, expected) in prefix.enumerated() {
                let actual = bytes[index + offset]
                let same = caseInsensitive ? lowercased(actual) == lowercased(expected) : actual == expected
                guard same else { return false }
            }
            index += prefix.count
            return true
        }

        /// Moves just past the next occurrence of `terminator`; false when there is none.
        mutating func skip(past terminator: [UInt8]) -> Bool {
            while index < bytes.count {
                if skip(prefix: terminator) { return true }
                index += 1
            }
            return false
        }

        /// Moves past a `<!…>` declaration, whose quoted strings and `[…]` subset may hold `>`.
        mutating func skipDeclaration() -> Bool {
            var depth = 0
            var quote: UInt8?
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if let open = quote {
                    if byte == open { quote = nil }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
                case UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "]"): depth -= 1
                case UInt8(ascii: ">") where depth <= 0: return true
                default: break
                }
            }
            return false
        }

        private func isBlank(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        private func lowercased(_ byte: UInt8) -> UInt8 {
            (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
        }
    }
}
