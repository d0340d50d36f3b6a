import Foundation

/// Base64url without padding (RFC 4648 §5), the form a signature takes in a query string and a
/// cursor in a page.
public enum Base64URL {
    // Byte maps rather than Foundation's replacingOccurrences: every signed GET verifies a
    // signature, and the string replacements were a tenth of its CPU time (perf, make bench); on a
    // feed page, its two cursors' were 3%.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let standard = Data(bytes).base64EncodedString()
        var url: [UInt8] = []
        url.reserveCapacity(standard.utf8.count)
        for byte in standard.utf8 {
            switch byte {
            case UInt8(ascii: "+"): url.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): url.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: url.append(byte)
            }
        }
        return String(decoding: url, as: UTF8.self)
    }

    /// The bytes, or nil when `text` holds anything outside the unpadded base64url alphabet.
    public static func decode(_ text: String) -> Data? {
        decode(text.utf8)
    }

    /// The bytes of base64url text given as its UTF-8 bytes (a part of a token, say).
    public static func decode(_ text: some Collection<UInt8>) -> Data? {
        guard text.allSatisfy(isAlphabet) else { return nil }
        var standard: [UInt8] = text.map { byte in
            byte == UInt8(ascii: "-") ? UInt8(ascii: "+") : byte == UInt8(ascii: "_") ? UInt8(ascii: "/") : byte
        }
        standard += repeatElement(UInt8(ascii: "="), count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: Data(standard))
    }

    private static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
