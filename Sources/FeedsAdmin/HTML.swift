/// A piece of HTML. Interpolating a `String` escapes it; only another `HTML` goes in as it is, so
/// a file name, a user id or an extension can never become markup.
package struct HTML: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    private(set) var text: String

    package init(stringLiteral value: String) {
        text = value
    }

    package init(stringInterpolation: Interpolation) {
        text = stringInterpolation.text
    }

    package init(escaping value: String) {
        text = HTML.escape(value)
    }

    package var description: String { text }

    package struct Interpolation: StringInterpolationProtocol {
        package var text = ""

        package init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity * 2)
        }

        package mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// Text: escaped.
        package mutating func appendInterpolation(_ value: String) {
            text += HTML.escape(value)
        }

        /// Numbers need no escaping.
        package mutating func appendInterpolation<Number: BinaryInteger>(_ value: Number) {
            text += String(value)
        }

        /// Markup already made safe.
        package mutating func appendInterpolation(_ html: HTML) {
            text += html.text
        }

        /// A list of markup, one after another.
        package mutating func appendInterpolation(_ list: [HTML]) {
            for html in list { text += html.text }
        }
    }

    /// The five characters that can end text or an attribute value, and nothing else.
    package static func escape(_ value: String) -> String {
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
