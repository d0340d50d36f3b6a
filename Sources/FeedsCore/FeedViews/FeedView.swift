import Foundation

/// A feed view (CreateFeedView and the rest): how a feed read with `view` picks and orders its
/// activities. Its selectors say where activities come from, its ranking in what order; without
/// a ranking, newest first.
public struct FeedView: Sendable, Equatable {
    public var id: String
    public var selectors: [ActivitySelection]
    public var ranking: Ranking?
    public var lastUsedAt: Date?

    public init(id: String, selectors: [ActivitySelection], ranking: Ranking?, lastUsedAt: Date? = nil) throws(FeedsError) {
        try FeedGroupChange.checkID(id)
        guard !selectors.isEmpty else { throw .input("a view needs at least one activity selector", field: "activity_selectors") }
        guard selectors.count <= 10 else { throw .input("a view has at most 10 activity selectors", field: "activity_selectors") }
        guard Set(selectors.map(\.kind)).count == selectors.count else {
            throw .input("each selector type at most once in a view", field: "activity_selectors")
        }
        (self.id, self.selectors, self.ranking, self.lastUsedAt) = (id, selectors, ranking, lastUsedAt)
    }

    /// Most views an app keeps.
    public static let maxViews = 100
}

/// One of a view's `activity_selectors`.
public struct ActivitySelection: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// What the read feed's follows copied into it.
        case following
        /// What was posted to the read feed itself.
        case currentFeed = "current_feed"
        /// Public activities at least `minPopularity` popular, newer than the cutoff.
        case popular
        /// Activities the `filter` selects (QueryActivities' filter).
        case query
    }

    public var kind: Kind
    /// Only activities newer than this many seconds (`cutoff_window`) …
    public var cutoffWindow: Int?
    /// … or than this time (`cutoff_time`).
    public var cutoffTime: Date?
    /// For `popular`: the least popularity (reactions + comments × 2 + bookmarks × 3); default 5.
    public var minPopularity: Int?
    /// For `query`: QueryActivities' filter, kept as given and read with `ActivityFilter`.
    public var filter: JSONObject?

    public init(
        kind: Kind, cutoffWindow: Int? = nil, cutoffTime: Date? = nil, minPopularity: Int? = nil, filter: JSONObject? = nil,
        field: String
    ) throws(FeedsError) {
        guard cutoffWindow == nil || cutoffTime == nil else {
            throw .input("give cutoff_window or cutoff_time, not both", field: field + ".cutoff_window")
        }
        if let minPopularity {
            guard kind == .popular else {
                throw .input("min_popularity is for the popular selector", field: field + ".min_popularity")
            }
            guard (1...1_000_000_000).contains(minPopularity) else {
                throw .input("min_popularity is 1 to 1,000,000,000", field: field + ".min_popularity")
            }
        }
        switch (kind, filter) {
        case (.query, nil): throw .input("the query selector needs a filter", field: field + ".filter")
        case (.query, let filter?):
            // Read now, so that a view never stores a filter its reads would refuse.
            var probe = ActivityQuery(viewer: .server)
            try ActivityFilter.apply(filter, to: &probe)
        case (_, .some): throw .input("a filter is for the query selector", field: field + ".filter")
        default: break
        }
        (self.kind, self.cutoffWindow, self.cutoffTime, self.minPopularity, self.filter) =
            (kind, cutoffWindow, cutoffTime, minPopularity, filter)
    }

    public static let defaultMinPopularity = 5
    /// How far back `popular` looks without a cutoff: a week.
    public static let defaultPopularWindow = 7 * 86_400
}

/// A view's `ranking`: `expression`, its `score`, the `defaults` of fields an activity lacks
/// (`custom.KEY`, `reaction_counts.TYPE`), and the parameters of its decay functions.
public struct Ranking: Sendable, Equatable {
    public var score: String
    public var expression: RankingExpression
    public var defaults: [String: Double]
    public var decays: [RankingExpression.Function: Decay]

    public init(score: String, defaults: [String: Double], decays: [RankingExpression.Function: Decay]) throws(FeedsError) {
        let expression = try RankingExpression(parsing: score, field: "ranking.score")
        guard defaults.count <= 50 else { throw .input("at most 50 ranking defaults", field: "ranking.defaults") }
        for (name, value) in defaults where name.utf8.count > 128 || !value.isFinite {
            throw .input("a default is a field name and a finite number", field: "ranking.defaults.\(name.prefix(40))")
        }
        (self.score, self.expression, self.defaults, self.decays) = (score, expression, defaults, decays)
    }

    /// A decay function's shape: full score within `offset` seconds of `origin` (nil: the time
    /// of the read), `decay` at `offset + scale`, falling on (as Elasticsearch's decay functions).
    public struct Decay: Sendable, Equatable {
        public var origin: Date?
        public var scale: Int
        public var offset: Int
        public var decay: Double

        public init(origin: Date? = nil, scale: Int = Decay.defaultScale, offset: Int = 0, decay: Double = 0.5, field: String)
            throws(FeedsError)
        {
            guard scale > 0 else { throw .input("scale must be a positive duration", field: field + ".scale") }
            guard offset >= 0 else { throw .input("offset must not be negative", field: field + ".offset") }
            guard decay > 0, decay < 1 else { throw .input("decay is between 0 and 1", field: field + ".decay") }
            (self.origin, self.scale, self.offset, self.decay) = (origin, scale, offset, decay)
        }

        /// A day.
        public static let defaultScale = 86_400
    }
}

/// Durations as Stream's views write them: `30s`, `15m`, `1h`, `3d`, `2w`, `1y`; a bare number is seconds.
public enum DurationText {
    public static func seconds(_ text: String, field: String) throws(FeedsError) -> Int {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800, "y": 31_536_000]
        var digits = Substring(text)
        var unit = 1
        if let last = text.last, let multiplier = units[last] {
            digits = text.dropLast()
            unit = multiplier
        }
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCIIDigit), let value = Int(digits) else {
            throw .input("\"\(text.prefix(40))\" is not a duration (like 30s, 15m, 1h, 3d, 2w, 1y)", field: field)
        }
        let seconds = value.multipliedReportingOverflow(by: unit)
        guard !seconds.overflow, seconds.partialValue <= 100 * 31_536_000 else {
            throw .input("a duration is at most 100 years", field: field)
        }
        return seconds.partialValue
    }

    /// Seconds written back in the largest unit that divides them (`259200` is `3d`).
    public static func text(_ seconds: Int) -> String {
        for (unit, size) in [("y", 31_536_000), ("w", 604_800), ("d", 86_400), ("h", 3_600), ("m", 60)]
        where seconds > 0 && seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

// MARK: - Stored form: the same checks as a request's, so a stored view or group reads back valid.

extension ActivitySelection: Codable {
    enum CodingKeys: String, CodingKey {
        case type, filter
        case cutoffWindow = "cutoff_window"
        case cutoffTime = "cutoff_time"
        case minPopularity = "min_popularity"
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        let type = try values.decode(String.self, forKey: .type)
        guard let kind = Kind(rawValue: type) else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: values, debugDescription: "unknown selector \(type)")
        }
        try self.init(
            kind: kind, cutoffWindow: try values.decodeIfPresent(Int.self, forKey: .cutoffWindow),
            cutoffTime: try values.decodeIfPresent(Double.self, forKey: .cutoffTime).map(Date.init(timeIntervalSince1970:)),
            minPopularity: try values.decodeIfPresent(Int.self, forKey: .minPopularity),
            filter: try values.decodeIfPresent(JSONObject.self, forKey: .filter), field: "activity_selectors")
    }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(kind.rawValue, forKey: .type)
        try values.encodeIfPresent(cutoffWindow, forKey: .cutoffWindow)
        try values.encodeIfPresent(cutoffTime?.timeIntervalSince1970, forKey: .cutoffTime)
        try values.encodeIfPresent(minPopularity, forKey: .minPopularity)
        try values.encodeIfPresent(filter, forKey: .filter)
    }
}

extension Ranking: Codable {
    enum CodingKeys: String, CodingKey {
        case score, defaults, functions
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        var decays: [RankingExpression.Function: Decay] = [:]
        for (name, decay) in try values.decodeIfPresent([String: Decay].self, forKey: .functions) ?? [:] {
            if let function = RankingExpression.Function(rawValue: name) { decays[function] = decay }
        }
        try self.init(
            score: try values.decode(String.self, forKey: .score),
            defaults: try values.decodeIfPresent([String: Double].self, forKey: .defaults) ?? [:], decays: decays)
    }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(score, forKey: .score)
        try values.encode(defaults, forKey: .defaults)
        try values.encode(Dictionary(uniqueKeysWithValues: decays.map { ($0.key.rawValue, $0.value) }), forKey: .functions)
    }
}

extension Ranking.Decay: Codable {
    enum CodingKeys: String, CodingKey {
        case origin, scale, offset, decay
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            origin: try values.decodeIfPresent(Double.self, forKey: .origin).map(Date.init(timeIntervalSince1970:)),
            scale: try values.decode(Int.self, forKey: .scale), offset: try values.decode(Int.self, forKey: .offset),
            decay: try values.decode(Double.self, forKey: .decay), field: "ranking.functions")
    }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encodeIfPresent(origin?.timeIntervalSince1970, forKey: .origin)
        try values.encode(scale, forKey: .scale)
        try values.encode(offset, forKey: .offset)
        try values.encode(decay, forKey: .decay)
    }
}
