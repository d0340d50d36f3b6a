import FeedsCore
import Foundation

/// A view's ranking as SQL over the activity `a` and its selector's `src`: each node written from
/// a fixed list of fragments, each number, name and key bound as a parameter, so nothing of the
/// client's text reaches the statement. Arithmetic goes through the `rk_*` functions (migration
/// 0034), which keep every value in range: a score never fails a read, whatever it divides by.
struct RankingSQL {
    let ranking: Ranking
    /// The time the read ranks at, in seconds since 1970: the decays' origin unless they name one,
    /// frozen in the page's cursor so that every page of a read ranks alike.
    let now: Double

    /// The score of `a`, a float8; NULL ranks as 0.
    func score(_ bind: inout SQLBinds) throws -> String {
        "COALESCE(\(try sql(ranking.expression, &bind)), 0)"
    }

    private func sql(_ node: RankingExpression, _ bind: inout SQLBinds) throws -> String {
        switch node {
        case .number(let value): return "rk(\(try bind(value))::float8)"
        case .string(let text): return "\(try bind(text))::text"
        case .field(let field): return try self.field(field, &bind)
        case .unary(.negate, let operand): return "(-\(try sql(operand, &bind)))"
        case .unary(.not, let operand): return "((\(try sql(operand, &bind)) = 0)::int::float8)"
        case .conditional(let test, let then, let otherwise):
            return "(CASE WHEN \(try sql(test, &bind)) <> 0 THEN \(try sql(then, &bind)) ELSE \(try sql(otherwise, &bind)) END)"
        case .binary(let op, let left, let right):
            let (l, r) = (try sql(left, &bind), try sql(right, &bind))
            switch op {
            case .add: return "rk(\(l) + \(r))"
            case .subtract: return "rk(\(l) - \(r))"
            case .multiply: return "rk(\(l) * \(r))"
            case .divide: return "rk_div(\(l), \(r))"
            case .modulo: return "rk_mod(\(l), \(r))"
            case .power: return "rk_pow(\(l), \(r))"
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                return "((\(l) \(op.rawValue) \(r))::int::float8)"
            case .equal: return "((\(l) = \(r))::int::float8)"
            case .notEqual: return "((\(l) <> \(r))::int::float8)"
            case .and: return "((\(l) <> 0 AND \(r) <> 0)::int::float8)"
            case .or: return "((\(l) <> 0 OR \(r) <> 0)::int::float8)"
            }
        case .call(let function, let arguments):
            let values = try arguments.map { try sql($0, &bind) }
            switch function {
            case .ln: return "rk_ln(\(values[0]))"
            case .log: return "rk_log(\(values[0]))"
            case .sqrt: return "rk_sqrt(\(values[0]))"
            case .exp: return "rk_exp(\(values[0]))"
            case .sin: return "rk(sin(\(values[0])))"
            case .cos: return "rk(cos(\(values[0])))"
            case .tan: return "rk(tan(\(values[0])))"
            case .abs: return "abs(\(values[0]))"
            case .trunc: return "trunc(\(values[0]))"
            case .round: return "round(\(values[0]))"
            case .min: return "LEAST(\(values[0]), \(values[1]))"
            case .max: return "GREATEST(\(values[0]), \(values[1]))"
            case .decayLinear, .decayExp, .decayGauss: return try decay(function, of: values[0], &bind)
            }
        }
    }

    /// A decay of `t` (seconds) around its origin, as Elasticsearch's: 1 within `offset`, `decay`
    /// at `offset + scale`, the constants worked out here and bound.
    private func decay(_ function: RankingExpression.Function, of t: String, _ bind: inout SQLBinds) throws -> String {
        let fallback = try Ranking.Decay(field: "ranking.functions")
        let shape = ranking.decays[function] ?? fallback
        let origin = shape.origin.map { $0.timeIntervalSince1970 } ?? now
        let distance = "GREATEST(abs(rk(\(t) - \(try bind(origin))::float8)) - \(try bind(Double(shape.offset)))::float8, 0)"
        let scale = Double(shape.scale)
        switch function {
        case .decayLinear:
            let s = try bind(scale / (1 - shape.decay))
            return "GREATEST(rk_div(\(s)::float8 - \(distance), \(s)::float8), 0)"
        case .decayExp:
            return "rk_exp(rk(\(try bind(log(shape.decay) / scale))::float8 * \(distance)))"
        default:
            let ratio = "rk_div(\(distance), \(try bind(scale))::float8)"
            return "rk_exp(rk(rk(\(ratio) * \(ratio)) * \(try bind(log(shape.decay)))::float8))"
        }
    }

    private func field(_ field: RankingExpression.Field, _ bind: inout SQLBinds) throws -> String {
        switch field {
        case .time: return "extract(epoch FROM a.created_at)::float8"
        case .popularity: return "\(ActivitySortSQL.popularity)::float8"
        case .reactionCount: return "a.reaction_count::float8"
        case .commentCount: return "a.comment_count::float8"
        case .bookmarkCount: return "a.bookmark_count::float8"
        case .shareCount: return "a.share_count::float8"
        case .type: return "a.type"
        case .selectorSource: return "src"
        case .reactionCountOf(let type):
            let fallback = ranking.defaults["reaction_counts.\(type)"] ?? 0
            return "COALESCE(rk_json(a.reaction_groups -> \(try bind(type))::text -> 'count'), rk(\(try bind(fallback))::float8))"
        case .custom(let path):
            let fallback = ranking.defaults[(["custom"] + path).joined(separator: ".")]
            let value = "rk_json(a.custom #> \(try bind(path))::text[])"
            return try fallback.map { "COALESCE(\(value), rk(\(try bind($0))::float8))" } ?? value
        }
    }
}
