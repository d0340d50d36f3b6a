import Foundation

/// Base64url without padding (RFC 4648 §5), the form a signature takes in a query string and a
/// cursor in a page.
public enum Base64URL {
    // Byte maps rather than Foundation's replacingOccurrences: every signed GET verifies a
    // signature and every feed page writes two cursors.
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
        var text = text
        return text.withUTF8 { decodedBytes($0) }.map { Data($0) }
    }

    /// The bytes of base64url text given as its UTF-8 bytes (a part of a token, say).
    public static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        text.withUnsafeBufferPointer { decodedBytes($0) }
    }

    /// Six bits a character, through a table: every request's token is three parts of base64url,
    /// and Foundation's decoder, behind a copy into standard base64, was a twentieth of a create.
    private static func decodedBytes(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }  // no encoding ends with a lone character
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count * 3 / 4)
        var bits: UInt32 = 0
        var pending = 0
        for character in text {
            let value = sextets[Int(character)]
            guard value != invalid else { return nil }
            bits = bits << 6 | UInt32(value)
            pending += 6
            if pending >= 8 {
                pending -= 8
                bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(pending)))
            }
        }
        return bytes
    }

    private static let invalid: UInt8 = 0xFF
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()
}
