/// A ranking `score`, parsed: Stream's expression language (arithmetic, comparisons, `&&`, `||`,
/// `!`, `? :`, its functions and activity fields), as a tree the database evaluates. The client's
/// text never reaches SQL: `RankingSQL` writes each node from a fixed list, and every number is a
/// bound parameter. Bounded three ways, so that a hostile score costs nothing: its length, its
/// node count and its depth.
public indirect enum RankingExpression: Sendable, Hashable {
    case number(Double)
    case string(String)
    /// An activity field: `time`, `popularity`, the counts, `reaction_counts.TYPE`, `custom.KEY…`,
    /// `type`, `selector_source`.
    case field(Field)
    case unary(UnaryOperator, RankingExpression)
    case binary(BinaryOperator, RankingExpression, RankingExpression)
    case conditional(RankingExpression, RankingExpression, RankingExpression)
    case call(Function, [RankingExpression])

    public enum Field: Sendable, Hashable {
        case time, popularity, reactionCount, commentCount, bookmarkCount, shareCount
        case reactionCountOf(String)
        case custom([String])
        case type, selectorSource

        /// Whether the field is text (`type`, `selector_source`), not a number.
        public var isText: Bool { self == .type || self == .selectorSource }
    }

    public enum UnaryOperator: String, Sendable, Hashable {
        case negate = "-", not = "!"
    }

    public enum BinaryOperator: String, Sendable, Hashable, CaseIterable {
        case add = "+", subtract = "-", multiply = "*", divide = "/", modulo = "%", power = "^"
        case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">=", equal = "==", notEqual = "!="
        case and = "&&", or = "||"
    }

    /// Stream's functions, less the random ones (a page's order must hold from one page to the next).
    public enum Function: String, Sendable, Hashable, CaseIterable {
        case ln, log, sin, cos, tan, abs, min, max, trunc, round, sqrt, exp
        case decayLinear = "decay_linear", decayExp = "decay_exp", decayGauss = "decay_gauss"

        var arity: ClosedRange<Int> {
            switch self {
            case .min, .max: 2...2
            default: 1...1
            }
        }
    }

    /// The longest score, the most nodes and the deepest nesting taken.
    public static let maxLength = 1024
    public static let maxNodes = 256
    public static let maxDepth = 32

    /// Parses `text`; a 400 on `field` says what is wrong and where.
    public init(parsing text: String, field: String) throws(FeedsError) {
        guard !text.isEmpty else { throw .input("the score is empty", field: field) }
        guard text.utf8.count <= Self.maxLength else {
            throw .input("a score is at most \(Self.maxLength) bytes, not \(text.utf8.count)", field: field)
        }
        var parser = Parser(tokens: try Lexer.tokens(of: text, field: field), field: field)
        let expression = try parser.expression(depth: 0)
        guard parser.atEnd else { throw .input("unexpected \(parser.describeNext) in the score", field: field) }
        guard parser.nodes <= Self.maxNodes else {
            throw .input("a score has at most \(Self.maxNodes) terms", field: field)
        }
        guard !expression.isText else { throw .input("the score must be a number, not text", field: field) }
        self = expression
    }

    /// Whether the expression is text (a text field or literal).
    var isText: Bool {
        switch self {
        case .string: true
        case .field(let field): field.isText
        default: false
        }
    }

    /// Every `decay_*` function the expression calls.
    public var decays: Set<Function> {
        switch self {
        case .number, .string, .field: []
        case .unary(_, let operand): operand.decays
        case .binary(_, let left, let right): left.decays.union(right.decays)
        case .conditional(let test, let then, let otherwise): test.decays.union(then.decays).union(otherwise.decays)
        case .call(let function, let arguments):
            arguments.reduce(into: function.rawValue.hasPrefix("decay_") ? [function] : []) { $0.formUnion($1.decays) }
        }
    }
}

// MARK: - Lexing

private enum Token: Equatable {
    case number(Double), string(String), name(String), symbol(String)
}

private enum Lexer {
    static let symbols = [
        "&&", "||", "<=", ">=", "==", "!=", "+", "-", "*", "/", "%", "^", "<", ">", "!", "?", ":", "(", ")", ",",
    ]

    static func tokens(of text: String, field: String) throws(FeedsError) -> [Token] {
        var tokens: [Token] = []
        let characters = Array(text.unicodeScalars)
        var index = 0
        func fail(_ why: String) -> FeedsError { .input("\(why) at character \(index + 1) of the score", field: field) }
        while index < characters.count {
            let character = characters[index]
            if character == " " || character == "\t" || character == "\n" || character == "\r" {
                index += 1
            } else if character.isASCIIDigit || character == "." {
                var end = index
                while end < characters.count,
                    characters[end].isASCIIDigit || characters[end] == "."
                        || ((characters[end] == "e" || characters[end] == "E") && end > index)
                        || ((characters[end] == "+" || characters[end] == "-") && end > index
                            && (characters[end - 1] == "e" || characters[end - 1] == "E"))
                {
                    end += 1
                }
                let literal = String(String.UnicodeScalarView(characters[index..<end]))
                guard let value = Double(literal), value.isFinite else { throw fail("\"\(literal)\" is not a number") }
                tokens.append(.number(value))
                index = end
            } else if character.isNameStart {
                var end = index
                while end < characters.count,
                    characters[end].isNameStart || characters[end].isASCIIDigit || characters[end] == "."
                {
                    end += 1
                }
                tokens.append(.name(String(String.UnicodeScalarView(characters[index..<end]))))
                index = end
            } else if character == "\"" || character == "'" {
                var end = index + 1
                while end < characters.count, characters[end] != character { end += 1 }
                guard end < characters.count else { throw fail("an unclosed string") }
                tokens.append(.string(String(String.UnicodeScalarView(characters[(index + 1)..<end]))))
                index = end + 1
            } else {
                let rest = String(String.UnicodeScalarView(characters[index..<min(index + 2, characters.count)]))
                guard let symbol = symbols.first(where: { rest.hasPrefix($0) }) else {
                    throw fail("\"\(Character(character))\" is not part of the language")
                }
                tokens.append(.symbol(symbol))
                index += symbol.count
            }
        }
        return tokens
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    fileprivate var isNameStart: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) || self == "_" }
}

// MARK: - Parsing (precedence climbing)

private struct Parser {
    let tokens: [Token]
    let field: String
    var position = 0
    var nodes = 0

    init(tokens: [Token], field: String) { (self.tokens, self.field) = (tokens, field) }

    var atEnd: Bool { position == tokens.count }
    var describeNext: String {
        guard position < tokens.count else { return "end" }
        switch tokens[position] {
        case .number(let value): return "number \(value)"
        case .string(let text): return "text \"\(text.prefix(20))\""
        case .name(let name): return "\"\(name.prefix(40))\""
        case .symbol(let symbol): return "\"\(symbol)\""
        }
    }

    /// Binary operators by precedence, loosest first.
    static let levels: [[RankingExpression.BinaryOperator]] = [
        [.or], [.and], [.equal, .notEqual], [.less, .lessOrEqual, .greater, .greaterOrEqual], [.add, .subtract],
        [.multiply, .divide, .modulo],
    ]

    mutating func expression(depth: Int) throws(FeedsError) -> RankingExpression {
        guard depth < RankingExpression.maxDepth else {
            throw .input("a score nests at most \(RankingExpression.maxDepth) deep", field: field)
        }
        let test = try binary(level: 0, depth: depth)
        guard take("?") else { return test }
        let then = try expression(depth: depth + 1)
        guard take(":") else { throw .input("\"?\" without its \":\" in the score", field: field) }
        let otherwise = try expression(depth: depth + 1)
        return try node(.conditional(try number(test), try number(then), try number(otherwise)))
    }

    mutating func binary(level: Int, depth: Int) throws(FeedsError) -> RankingExpression {
        guard level < Self.levels.count else { return try power(depth: depth) }
        var left = try binary(level: level + 1, depth: depth)
        while let symbol = peekSymbol, let op = Self.levels[level].first(where: { $0.rawValue == symbol }) {
            position += 1
            let right = try binary(level: level + 1, depth: depth)
            left = try node(try Self.typed(op, left, right, field: field))
        }
        return left
    }

    /// `^` binds tighter than `*` and to the right, as in Stream's examples (`popularity ^ 0.5`).
    mutating func power(depth: Int) throws(FeedsError) -> RankingExpression {
        let base = try unary(depth: depth)
        guard take("^") else { return base }
        guard depth + 1 < RankingExpression.maxDepth else {
            throw .input("a score nests at most \(RankingExpression.maxDepth) deep", field: field)
        }
        let exponent = try power(depth: depth + 1)
        return try node(.binary(.power, try number(base), try number(exponent)))
    }

    mutating func unary(depth: Int) throws(FeedsError) -> RankingExpression {
        if take("-") { return try node(.unary(.negate, try number(try unary(depth: depth + 1)))) }
        if take("!") { return try node(.unary(.not, try number(try unary(depth: depth + 1)))) }
        return try primary(depth: depth)
    }

    mutating func primary(depth: Int) throws(FeedsError) -> RankingExpression {
        guard position < tokens.count else { throw .input("the score ends too soon", field: field) }
        let token = tokens[position]
        position += 1
        switch token {
        case .number(let value): return try node(.number(value))
        case .string(let text):
            guard text.utf8.count <= 128 else { throw .input("text in a score is at most 128 bytes", field: field) }
            return try node(.string(text))
        case .symbol("("):
            let inner = try expression(depth: depth + 1)
            guard take(")") else { throw .input("a \"(\" is not closed in the score", field: field) }
            return inner
        case .name(let name):
            if take("(") {
                guard let function = RankingExpression.Function(rawValue: name.lowercased()) else {
                    throw .input("\"\(name.prefix(40))\" is not a function this server knows", field: field)
                }
                var arguments: [RankingExpression] = []
                if !take(")") {
                    repeat { arguments.append(try number(try expression(depth: depth + 1))) } while take(",")
                    guard take(")") else { throw .input("a call to \(function.rawValue) is not closed", field: field) }
                }
                guard function.arity.contains(arguments.count) else {
                    throw .input("\(function.rawValue) takes \(function.arity.lowerBound) argument(s)", field: field)
                }
                return try node(.call(function, arguments))
            }
            return try node(.field(try Self.field(name, field: field)))
        case .symbol(let symbol): throw .input("unexpected \"\(symbol)\" in the score", field: field)
        }
    }

    static func field(_ name: String, field: String) throws(FeedsError) -> RankingExpression.Field {
        switch name {
        case "time": return .time
        case "popularity": return .popularity
        case "reaction_count": return .reactionCount
        case "comment_count": return .commentCount
        case "bookmark_count": return .bookmarkCount
        case "share_count": return .shareCount
        case "type": return .type
        case "selector_source": return .selectorSource
        default:
            let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if parts.count == 2, parts[0] == "reaction_counts", !parts[1].isEmpty { return .reactionCountOf(parts[1]) }
            if parts.count >= 2, parts.count <= 5, parts[0] == "custom", parts.dropFirst().allSatisfy({ !$0.isEmpty }) {
                return .custom(Array(parts.dropFirst()))
            }
            throw .input("\"\(name.prefix(40))\" is not an activity field a score may use", field: field)
        }
    }

    /// Text may only be compared for equality with text; everything else is numbers.
    static func typed(
        _ op: RankingExpression.BinaryOperator, _ left: RankingExpression, _ right: RankingExpression, field: String
    ) throws(FeedsError) -> RankingExpression {
        if op == .equal || op == .notEqual {
            guard left.isText == right.isText else { throw .input("\(op.rawValue) compares text with a number", field: field) }
        } else if left.isText || right.isText {
            throw .input("\(op.rawValue) takes numbers, not text", field: field)
        }
        return .binary(op, left, right)
    }

    func number(_ expression: RankingExpression) throws(FeedsError) -> RankingExpression {
        guard !expression.isText else { throw .input("text where a number is needed in the score", field: field) }
        return expression
    }

    mutating func node(_ expression: RankingExpression) throws(FeedsError) -> RankingExpression {
        nodes += 1
        guard nodes <= RankingExpression.maxNodes else {
            throw .input("a score has at most \(RankingExpression.maxNodes) terms", field: field)
        }
        return expression
    }

    var peekSymbol: String? {
        guard position < tokens.count, case .symbol(let symbol) = tokens[position] else { return nil }
        return symbol
    }

    mutating func take(_ symbol: String) -> Bool {
        guard peekSymbol == symbol else { return false }
        position += 1
        return true
    }
}
