import Foundation

/// RFC 3339 times with up to nanosecond fractions, as Stream's API writes them.
public enum RFC3339 {
    /// Parses `2024-05-01T12:00:00Z`, with or without a fraction, in any offset.
    public static func date(from text: String) -> Date? {
        // Foundation's parser rolls out-of-range fields over (hour 25 is the next day): check the shape first.
        guard text.wholeMatch(of: shape) != nil, dayExists(in: text) else { return nil }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        return try? Date(text, strategy: Date.ISO8601FormatStyle())
    }

    nonisolated(unsafe) private static let shape =
        /\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)/

    /// February 30th matches the shape but Foundation would roll it into March.
    private static func dayExists(in text: String) -> Bool {
        let digits = text.prefix(10).split(separator: "-").compactMap { Int($0) }
        guard digits.count == 3 else { return false }
        let (year, month, day) = (digits[0], digits[1], digits[2])
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

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
