import Foundation

/// Where an object lives in the CDN: made by the server (random, then the sanitised file name),
/// never taken from a client, so no client string ever becomes a path.
public struct ObjectKey: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    /// A new random key ending in a safe form of `fileName`.
    public init(fileName: String) {
        let random = (0..<2).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }.joined()
        self.rawValue = random.prefix(32) + "/" + ObjectKey.safeFileName(fileName)
    }

    /// A key read back from storage or from one of our URLs; nil when it is not of our form.
    public init?(rawValue: String) {
        let parts = rawValue.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 32, parts[0].allSatisfy({ $0.isASCII && $0.isHexDigit }),
            !parts[1].isEmpty, ObjectKey.safeFileName(String(parts[1])) == parts[1]
        else { return nil }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// The file name part, for `Content-Disposition` and default titles.
    public var fileName: String { String(rawValue.split(separator: "/").last ?? "") }

    /// The name a file is stored and served under, and so the one the upload rules check: the
    /// last path component, letters, digits, `.`, `-` and `_` only, no leading or trailing dot,
    /// at most 100 characters. (`evil.exe/` and `evil.exe.` are both `evil.exe`.)
    public static func safeFileName(_ name: String) -> String {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        var safe = String(
            base.unicodeScalars.map { scalar -> Character in
                (scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar)))
                    ? Character(scalar) : "_"
            })
        if safe.count > 100 { safe = String(safe.suffix(100)) }
        while safe.hasPrefix(".") { safe.removeFirst() }
        while safe.hasSuffix(".") { safe.removeLast() }
        return safe.isEmpty ? "file" : safe
    }
}
