import Foundation

/// RFC 3339 times with up to nanosecond fractions, as Stream's API writes them.
public enum RFC3339 {
    /// Parses `2024-05-01T12:00:00Z`, with or without a fraction, in any offset.
    public static func date(from text: String) -> Date? {
        // Foundation's parser rolls out-of-range fields over (hour 25 is the next day): check the shape first.
        guard text.wholeMatch(of: shape) != nil else { return nil }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        return try? Date(text, strategy: Date.ISO8601FormatStyle())
    }

    nonisolated(unsafe) private static let shape =
        /\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)/

    /// Formats with microseconds in UTC: `2024-05-01T12:00:00.123456Z`.
    public static func string(from date: Date) -> String {
        let micros = date.microsecondsSince1970
        let seconds = micros.floorDiv(1_000_000)
        let fraction = micros - seconds * 1_000_000
        let whole = Date(timeIntervalSince1970: Double(seconds))
        var text = whole.formatted(Date.ISO8601FormatStyle())
        text.removeLast()  // the "Z"
        let digits = String(fraction)
        return text + "." + String(repeating: "0", count: 6 - digits.count) + digits + "Z"
    }
}

extension Int64 {
    fileprivate func floorDiv(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }
}
