import Foundation

extension UUID {
    /// The canonical lower-case spelling, written by hand: `uuidString` formats through `printf`,
    /// and lower-casing it is a second pass. Activity and request ids are made on every create.
    public var lowercasedString: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    text[at] = hexDigits[Int(byte >> 4)]
                    text[at + 1] = hexDigits[Int(byte & 0xf)]
                    at += 2
                }
                return at
            }
        }
    }
}
