import Foundation

/// A feed group's `aggregation.format`: the subset of Stream's template language its docs use,
/// rendered at write time into the group an activity joins. Text, and `{{ name }}` for `type`,
/// `target_id`, `user_id` and `actor_id`, or `{{ time.strftime("…") }}` with `%Y %m %d %H %M %j`.
/// Anything else is refused when the format is set; it never runs as code.
public struct AggregationFormat: Sendable, Equatable {
    /// Stream's notification feeds: one group per target, kind and day.
    public static let notification = try! AggregationFormat(#"{{ target_id }}_{{ type }}_{{ time.strftime("%Y-%m-%d") }}"#)

    enum Piece: Sendable, Equatable {
        case text(String)
        case variable(String)
        case time(String)
    }

    let pieces: [Piece]
    public let source: String

    static let variables: Set<String> = ["type", "target_id", "user_id", "actor_id"]
    static let timeCodes: Set<Character> = ["Y", "m", "d", "H", "M", "j", "%"]

    public init(_ source: String) throws(FeedsError) {
        guard (1...256).contains(source.utf8.count) else {
            throw .input("aggregation.format is 1 to 256 bytes", field: "aggregation.format")
        }
        if source.contains("{%") || source.contains("{#") {
            throw .input(
                "aggregation.format takes {{ … }} expressions only, no statements or comments", field: "aggregation.format")
        }
        var pieces: [Piece] = []
        var rest = Substring(source)
        while let open = rest.range(of: "{{") {
            if open.lowerBound > rest.startIndex { pieces.append(.text(String(rest[..<open.lowerBound]))) }
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw .input("aggregation.format has a {{ without its }}", field: "aggregation.format")
            }
            pieces.append(try Self.piece(rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)))
            rest = rest[close.upperBound...]
        }
        if rest.contains("}}") { throw .input("aggregation.format has a }} without its {{", field: "aggregation.format") }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        guard pieces.contains(where: { if case .text = $0 { false } else { true } }) else {
            throw .input(
                "aggregation.format names no variable: every activity would join one group", field: "aggregation.format")
        }
        self.pieces = pieces
        self.source = source
    }

    private static func piece(_ expression: String) throws(FeedsError) -> Piece {
        if variables.contains(expression) { return .variable(expression) }
        if let format = strftimeArgument(expression) {
            var percent = false
            for character in format {
                if percent, !timeCodes.contains(character) {
                    throw .input(
                        "aggregation.format: strftime takes %Y %m %d %H %M %j, not %\(character)", field: "aggregation.format")
                }
                percent = !percent && character == "%"
            }
            return .time(format)
        }
        throw .input(
            "aggregation.format: {{ \(expression.prefix(40)) }} is not one of type, target_id, user_id, actor_id or time.strftime(\"…\")",
            field: "aggregation.format")
    }

    /// The quoted text in `time.strftime("…")` (or with single quotes), spaces allowed inside
    /// the parentheses; nil for anything else. Read by hand: a `Regex` built on each call cost a
    /// notifying reaction a tenth of the server's time.
    private static func strftimeArgument(_ expression: String) -> String? {
        let call = "time.strftime("
        guard expression.hasPrefix(call), expression.hasSuffix(")") else { return nil }
        let inside = expression.dropFirst(call.count).dropLast().trimmingCharacters(in: .whitespaces)
        guard let quote = inside.first, quote == "\"" || quote == "'", inside.count >= 2, inside.last == quote else {
            return nil
        }
        let text = inside.dropFirst().dropLast()
        return text.contains(quote) ? nil : String(text)
    }

    /// The group an activity joins.
    public func render(type: String, targetID: String, userID: String, time: Date) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let text): out += text
            case .variable("type"): out += type
            case .variable("target_id"): out += targetID
            case .variable(_): out += userID
            case .time(let format): out += Self.strftime(format, time)
            }
        }
        return out
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static func strftime(_ format: String, _ time: Date) -> String {
        let parts = utc.dateComponents([.year, .month, .day, .hour, .minute], from: time)
        func two(_ value: Int?) -> String { let v = value ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        var out = ""
        var percent = false
        for character in format {
            if percent {
                switch character {
                case "Y": out += String(parts.year ?? 0)
                case "m": out += two(parts.month)
                case "d": out += two(parts.day)
                case "H": out += two(parts.hour)
                case "M": out += two(parts.minute)
                case "j":
                    let day = utc.ordinality(of: .day, in: .year, for: time) ?? 0
                    out += day < 10 ? "00\(day)" : day < 100 ? "0\(day)" : "\(day)"
                default: out.append(character)
                }
                percent = false
            } else if character == "%" {
                percent = true
            } else {
                out.append(character)
            }
        }
        return out
    }
}
