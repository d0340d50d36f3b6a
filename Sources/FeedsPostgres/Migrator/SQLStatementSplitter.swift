import Foundation

/// Splits a SQL file into statements, because PostgresNIO's extended protocol takes one per query.
///
/// Semicolons inside quotes ('…', "…"), dollar quotes ($$…$$, $tag$…$tag$) and comments
/// (-- … and /* … */) do not split. Empty statements are dropped.
public enum SQLStatementSplitter {
    public static func split(_ sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var index = sql.startIndex

        func peek(_ offset: Int = 1) -> Character? {
            var cursor = index
            for _ in 0..<offset {
                cursor = sql.index(after: cursor)
                if cursor == sql.endIndex { return nil }
            }
            return sql[cursor]
        }
        func take(until terminator: String) {
            // Copies up to and including the terminator (or to the end).
            if let range = sql[index...].range(of: terminator) {
                current += sql[index..<range.upperBound]
                index = range.upperBound
            } else {
                current += sql[index...]
                index = sql.endIndex
            }
        }

        while index < sql.endIndex {
            let character = sql[index]
            switch character {
            case "'", "\"":
                current.append(character)
                index = sql.index(after: index)
                take(until: String(character))
            case "-" where peek() == "-":
                take(until: "\n")
            case "/" where peek() == "*":
                current += "/*"
                index = sql.index(index, offsetBy: 2)
                take(until: "*/")
            case "$":
                if let tag = dollarTag(in: sql, at: index) {
                    current += tag
                    index = sql.index(index, offsetBy: tag.count)
                    take(until: tag)
                } else {
                    current.append(character)
                    index = sql.index(after: index)
                }
            case ";":
                append(current, to: &statements)
                current = ""
                index = sql.index(after: index)
            default:
                current.append(character)
                index = sql.index(after: index)
            }
        }
        append(current, to: &statements)
        return statements
    }

    private static func append(_ statement: String, to statements: inout [String]) {
        let trimmed = statement.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty, !isOnlyComments(trimmed) { statements.append(trimmed) }
    }

    private static func isOnlyComments(_ text: String) -> Bool {
        text.split(separator: "\n").allSatisfy { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
    }

    /// `$$` or `$tag$` starting at `index`, if one does.
    private static func dollarTag(in sql: String, at index: String.Index) -> String? {
        var cursor = sql.index(after: index)
        var tag = "$"
        // A tag cannot start with a digit: `$1` is a parameter, not a quote.
        if cursor < sql.endIndex, sql[cursor].isNumber { return nil }
        while cursor < sql.endIndex {
            let character = sql[cursor]
            if character == "$" { return tag + "$" }
            guard character.isLetter || character.isNumber || character == "_" else { return nil }
            tag.append(character)
            cursor = sql.index(after: cursor)
        }
        return nil
    }
}
