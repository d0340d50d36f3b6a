/// The admin's lists as given, turned into the form the rules compare against, or refused with
/// the field at fault.
extension UploadRules {
    /// Lists longer than this are refused: a rule set is a short policy, not a database.
    public static let maximumEntries = 256

    /// Lower case, no leading dot, no duplicates; an empty or path-like entry is refused.
    public static func normalizedExtensions(_ entries: [String], field: String) throws -> [String] {
        try normalized(entries, field: field) { entry in
            var value = entry.trimmingWhitespace().lowercased()
            if value.hasPrefix(".") { value.removeFirst() }
            guard !value.isEmpty else { throw FeedsError.input("an extension must not be empty", field: field) }
            let pathLike =
                value.contains("/") || value.contains("\\") || value.hasPrefix(".") || value.hasSuffix(".")
                || value.contains("..")
            guard !pathLike, value.count <= 32, value.allSatisfy(isExtensionCharacter) else {
                throw FeedsError.input(
                    "\"\(entry)\" is not a file extension (letters, digits, - _ + and inner dots, like png or tar.gz)",
                    field: field)
            }
            return value
        }
    }

    /// Lower case `type/subtype` (or `type/*`), no parameters, no duplicates.
    public static func normalizedMimeTypes(_ entries: [String], field: String) throws -> [String] {
        try normalized(entries, field: field) { entry in
            let value = entry.trimmingWhitespace().lowercased()
            let parts = value.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, isMimeToken(parts[0]), parts[1] == "*" || isMimeToken(parts[1]) else {
                throw FeedsError.input("\"\(entry)\" is not a MIME type of the form type/subtype", field: field)
            }
            return value
        }
    }

    /// A size limit in range: 0 (the default) up to 100 MB.
    public static func validatedSizeLimit(_ value: Int64, field: String) throws -> Int64 {
        guard (0...maximumSize).contains(value) else {
            throw FeedsError.input("size_limit must be between 0 (the default, 100 MB) and \(maximumSize) bytes", field: field)
        }
        return value
    }

    private static func normalized(
        _ entries: [String], field: String, _ normalize: (String) throws -> String
    ) throws -> [String] {
        guard entries.count <= maximumEntries else {
            throw FeedsError.input("at most \(maximumEntries) entries", field: field)
        }
        var seen = Set<String>()
        return try entries.map(normalize).filter { seen.insert($0).inserted }
    }

    private static func isExtensionCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "-_+.".contains(character))
    }

    /// RFC 6838's restricted names: a letter or digit, then up to 126 of these.
    private static func isMimeToken(_ token: Substring) -> Bool {
        guard let first = token.first, first.isASCII, first.isLetter || first.isNumber, token.count <= 127 else { return false }
        return token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "!#$&^_.+-".contains($0)) }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
