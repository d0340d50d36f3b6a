/// A piece of HTML. Interpolating a `String` escapes it; only another `HTML` goes in as it is, so
/// a file name, a user id or an extension can never become markup.
struct HTML: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    private(set) var text: String

    init(stringLiteral value: String) {
        text = value
    }

    init(stringInterpolation: Interpolation) {
        text = stringInterpolation.text
    }

    init(escaping value: String) {
        text = HTML.escape(value)
    }

    var description: String { text }

    struct Interpolation: StringInterpolationProtocol {
        var text = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity * 2)
        }

        mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// Text: escaped.
        mutating func appendInterpolation(_ value: String) {
            text += HTML.escape(value)
        }

        /// Numbers need no escaping.
        mutating func appendInterpolation<Number: BinaryInteger>(_ value: Number) {
            text += String(value)
        }

        /// Markup already made safe.
        mutating func appendInterpolation(_ html: HTML) {
            text += html.text
        }

        /// A list of markup, one after another.
        mutating func appendInterpolation(_ list: [HTML]) {
            for html in list { text += html.text }
        }
    }

    /// The five characters that can end text or an attribute value, and nothing else.
    static func escape(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\u{0}": escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
