import Foundation

/// A position in the newest-first order of activities: opaque to clients as `next` / `prev`.
///
/// Keyset pagination on `(created_at, id)`: a page after a cursor is the same page however many
/// activities arrive meanwhile, with no duplicates and no gaps.
public struct ActivityCursor: Sendable, Hashable {
    /// Which way a cursor pages.
    public enum Direction: String, Sendable {
        /// Older activities: a `next` cursor.
        case older = "n"
        /// Newer activities: a `prev` cursor.
        case newer = "p"
    }

    /// Microseconds since 1970 of the activity at the edge of the page (Postgres's precision).
    public var micros: Int64
    /// That activity's id, which breaks ties between equal timestamps.
    public var id: String
    public var direction: Direction
    /// In a ranked read (a view's `ranking`), the edge's score and the time the read ranks at,
    /// which every later page ranks at too; `micros` is then that time.
    public var score: Double?
    /// In a sorted read (QueryActivities' `sort`, `ActivitySort.token`), the sort; `score` is then
    /// the edge's value of the sorted field and `micros` its time.
    public var sort: String?

    public init(micros: Int64, id: String, direction: Direction, score: Double? = nil, sort: String? = nil) {
        self.micros = micros
        self.id = id
        self.direction = direction
        self.score = score
        self.sort = sort
    }

    /// The cursor at an activity's position.
    public init(after activity: Activity, direction: Direction) {
        self.init(micros: activity.createdAt.microsecondsSince1970, id: activity.id, direction: direction)
    }

    /// The edge timestamp as a date, exact to the microsecond.
    public var date: Date { Date(microsecondsSince1970: micros) }

    /// The opaque token: base64url of `direction|micros|id`, for a ranked read
    /// `s|micros|score bits|id`, for a sorted read `o|sort|micros|value bits|id` (both only ever `next`).
    public var token: String {
        if let sort { return Base64URL.encode("o|\(sort)|\(micros)|\((score ?? 0).bitPattern)|\(id)".utf8) }
        if let score { return Base64URL.encode("s|\(micros)|\(score.bitPattern)|\(id)".utf8) }
        return Base64URL.encode("\(direction.rawValue)|\(micros)|\(id)".utf8)
    }

    /// Decodes a token; `expected` is the direction its field (`next` or `prev`) implies.
    public init(token: String, expected: Direction, field: String) throws(FeedsError) {
        guard let data = Base64URL.decode(token), let text = String(data: data, encoding: .utf8) else {
            throw .input("\(field) is not a valid cursor", field: field)
        }
        if text.hasPrefix("o|"), expected == .older {
            let parts = text.split(separator: "|", maxSplits: 4, omittingEmptySubsequences: false)
            guard parts.count == 5, !parts[1].isEmpty, parts[1].utf8.count <= 32, let micros = Int64(parts[2]),
                WireTime.microseconds.contains(micros), let bits = UInt64(parts[3]), Double(bitPattern: bits).isFinite,
                !parts[4].isEmpty
            else {
                throw .input("\(field) is not a valid cursor", field: field)
            }
            self.init(
                micros: micros, id: String(parts[4]), direction: .older, score: Double(bitPattern: bits), sort: String(parts[1]))
            return
        }
        if text.hasPrefix("s|"), expected == .older {
            let parts = text.split(separator: "|", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, let micros = Int64(parts[1]), WireTime.microseconds.contains(micros),
                let bits = UInt64(parts[2]), Double(bitPattern: bits).isFinite, !parts[3].isEmpty
            else {
                throw .input("\(field) is not a valid cursor", field: field)
            }
            self.init(micros: micros, id: String(parts[3]), direction: .older, score: Double(bitPattern: bits))
            return
        }
        let parts = text.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let direction = Direction(rawValue: String(parts[0])), direction == expected,
            let micros = Int64(parts[1]), WireTime.microseconds.contains(micros), !parts[2].isEmpty
        else {
            throw .input("\(field) is not a valid cursor", field: field)
        }
        self.init(micros: micros, id: String(parts[2]), direction: direction)
    }
}
