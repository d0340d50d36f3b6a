import Foundation

/// Times as Stream's API exchanges them: responses carry integers, nanoseconds since the Unix
/// epoch (the spec says `number`; the SDKs decode nanoseconds); requests carry that or an RFC 3339
/// string, which is what the SDKs send for `datetime` and `Date` values.
public enum WireTime {
    /// Nanoseconds since 1970, at the microsecond precision PostgreSQL keeps (clamped to
    /// `microseconds`, which every stored time is within).
    public static func nanoseconds(_ date: Date) -> Int64 {
        min(max(date.microsecondsSince1970, microseconds.lowerBound), microseconds.upperBound) * 1000
    }

    /// A request's time: an integer of nanoseconds, or an RFC 3339 string (without an offset it
    /// is UTC, as Python's `isoformat()` of a naive datetime is meant).
    public static func date(from value: JSONValue) -> Date? {
        switch value {
        case .number(let nanos): date(nanoseconds: nanos)
        case .string(let text): date(from: text)
        default: nil
        }
    }

    public static func date(from text: String) -> Date? {
        if let nanos = Int64(text) { return date(nanoseconds: Double(nanos)) }
        guard let date = RFC3339.date(from: text) ?? RFC3339.date(from: text + "Z") else { return nil }
        return microseconds.contains(date.microsecondsSince1970) ? date : nil
    }

    /// The microseconds since 1970 whose nanoseconds fit an `Int64` (1677-09-21 to 2262-04-11): a
    /// time from a client (or a forged cursor) outside them is refused rather than overflowing.
    public static let microseconds: ClosedRange<Int64> = -9_223_372_036_854_775...9_223_372_036_854_775

    /// Nanoseconds as a date, when they fall in `microseconds`.
    static func date(nanoseconds: Double) -> Date? {
        let micros = (nanoseconds / 1000).rounded()
        guard micros.isFinite, abs(micros) < 1e18, microseconds.contains(Int64(micros)) else { return nil }
        return Date(microsecondsSince1970: Int64(micros))
    }
}

extension Date {
    /// Whole microseconds since 1970, rounded as Postgres stores timestamps.
    public var microsecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// A date from microseconds since 1970.
    public init(microsecondsSince1970 micros: Int64) {
        self.init(timeIntervalSince1970: Double(micros) / 1_000_000)
    }
}
