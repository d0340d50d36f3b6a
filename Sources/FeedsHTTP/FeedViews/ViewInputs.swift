import FeedsAPI
import FeedsCore
import FeedsWire
import Foundation

/// A view's parts on the wire, read: a feed view's, and a feed group's (which configures the same).
enum ViewInputs {
    static func selections(_ activitySelectors: [Components.Schemas.ActivitySelectorConfig]?) throws -> [ActivitySelection]? {
        return try activitySelectors?.enumerated().map { index, selector in
            let field = "activity_selectors[\(index)]"
            guard let kind = ActivitySelection.Kind(rawValue: selector._type) else {
                throw FeedsError.input(
                    "selector \"\(selector._type)\" is not supported by this server (following, current_feed, popular, query)",
                    field: field + ".type")
            }
            if selector.sort?.isEmpty == false || selector.params?.additionalProperties.isEmpty == false {
                throw FeedsError.input("selectors take no sort or params on this server", field: field)
            }
            return try ActivitySelection(
                kind: kind,
                cutoffWindow: try selector.cutoffWindow.map { try DurationText.seconds($0, field: field + ".cutoff_window") },
                cutoffTime: try selector.cutoffTime.map { text in
                    guard let date = WireTime.date(from: text) else {
                        throw FeedsError.input("cutoff_time is an RFC 3339 time", field: field + ".cutoff_time")
                    }
                    return date
                },
                minPopularity: selector.minPopularity.map(Int.init),
                filter: try selector.filter.map { try FreeForm.object($0.additionalProperties) }, field: field)
        }
    }

    static func ranking(_ ranking: Components.Schemas.RankingConfig?) throws -> Ranking? {
        guard let ranking else { return nil }
        guard ranking._type == .expression else {
            throw FeedsError.input(
                "ranking type \(ranking._type.rawValue) is not supported by this server (expression)", field: "ranking.type")
        }
        guard let score = ranking.score else {
            throw FeedsError.input("an expression ranking needs a score", field: "ranking.score")
        }
        var defaults: [String: Double] = [:]
        for (name, value) in try FreeForm.object(ranking.defaults?.additionalProperties ?? [:]) {
            guard case .number(let number) = value else {
                throw FeedsError.input("ranking defaults are numbers", field: "ranking.defaults.\(name.prefix(40))")
            }
            defaults[name] = number
        }
        var decays: [RankingExpression.Function: Ranking.Decay] = [:]
        for (name, value) in try FreeForm.object(ranking.functions?.additionalProperties ?? [:]) {
            let field = "ranking.functions.\(name.prefix(40))"
            guard let function = RankingExpression.Function(rawValue: name), name.hasPrefix("decay_"),
                case .object(let parts) = value
            else {
                throw FeedsError.input("functions configures decay_linear, decay_exp and decay_gauss", field: field)
            }
            decays[function] = try Self.decay(parts, field: field)
        }
        return try Ranking(score: score, defaults: defaults, decays: decays)
    }

    /// A decay's parameters: `origin` (or `base`) `now` or an RFC 3339 time, `scale` and `offset`
    /// durations, `decay` a number between 0 and 1, all as strings, as Stream sends them.
    private static func decay(_ parts: JSONObject, field: String) throws -> Ranking.Decay {
        func text(_ key: String) throws -> String? {
            switch parts[key] {
            case nil, .null: return nil
            case .string(let value): return value
            case .number(let value): return String(value)
            default: throw FeedsError.input("\(key) is a string", field: field + "." + key)
            }
        }
        for key in parts.keys where !["origin", "base", "scale", "offset", "decay", "direction"].contains(key) {
            throw FeedsError.input("a decay takes origin, scale, offset and decay", field: field + "." + key)
        }
        if let direction = try text("direction"), direction != "both" {
            throw FeedsError.input("decays here fall both ways from their origin", field: field + ".direction")
        }
        var origin: Date?
        if let given = try text("origin") ?? text("base"), given != "now" {
            guard let date = WireTime.date(from: given) else {
                throw FeedsError.input("origin is \"now\" or an RFC 3339 time", field: field + ".origin")
            }
            origin = date
        }
        let decay = try text("decay").map { value in
            guard let number = Double(value), number.isFinite else {
                throw FeedsError.input("decay is a number", field: field + ".decay")
            }
            return number
        }
        return try Ranking.Decay(
            origin: origin,
            scale: try text("scale").map { try DurationText.seconds($0, field: field + ".scale") } ?? Ranking.Decay.defaultScale,
            offset: try text("offset").map { try DurationText.seconds($0, field: field + ".offset") } ?? 0,
            decay: decay ?? 0.5, field: field)
    }
}
