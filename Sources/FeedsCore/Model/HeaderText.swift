extension StringProtocol {
    /// Without the spaces and tabs HTTP allows around a header value and its parts (RFC 9110's
    /// OWS). Foundation's `trimmingCharacters(in: .whitespaces)` goes through `NSString`, and
    /// showed in the profile of every request.
    package func trimmingHeaderSpace() -> Substring {
        let text = Substring(self)
        let utf8 = text.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, utf8[start] == 0x20 || utf8[start] == 0x09 { start = utf8.index(after: start) }
        while start < end {
            let last = utf8.index(before: end)
            guard utf8[last] == 0x20 || utf8[last] == 0x09 else { break }
            end = last
        }
        return text[start..<end]
    }
}

extension Substring {
    /// Whether this is `lowercase` (lower-case ASCII) in any case, as header tokens compare,
    /// without the copy `lowercased()` makes.
    package func equalsIgnoringASCIICase(_ lowercase: String) -> Bool {
        utf8.elementsEqual(lowercase.utf8) { byte, expected in
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == expected
        }
    }
}
