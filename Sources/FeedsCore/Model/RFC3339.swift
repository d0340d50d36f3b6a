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
        String(unsafeUninitializedCapacity: length) { write(date, to: UnsafeMutableRawBufferPointer($0)) }
    }

    /// The length of every time `write` writes: `2026-11-21T23:02:24.883690Z`.
    public static let length = 27

    /// Writes `date` as UTF-8 into the first `length` bytes of `output`, with integer arithmetic
    /// (Foundation's formatter took a tenth of a feed page). Returns the number of bytes written.
    @discardableResult
    public static func write(_ date: Date, to output: UnsafeMutableRawBufferPointer) -> Int {
        let micros = date.microsecondsSince1970
        let seconds = micros.floorDiv(1_000_000)
        let fraction = Int(micros - seconds * 1_000_000)
        let days = Int(seconds.floorDiv(86_400))
        let time = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = civil(daysSince1970: days)
        precondition(output.count >= length, "RFC 3339 needs \(length) bytes")
        var at = 0
        func digits(_ value: Int, _ count: Int) {
            var value = value
            for index in stride(from: at + count - 1, through: at, by: -1) {
                output[index] = UInt8(ascii: "0") &+ UInt8(value % 10)
                value /= 10
            }
            at += count
        }
        func byte(_ ascii: Unicode.Scalar) {
            output[at] = UInt8(ascii: ascii)
            at += 1
        }
        digits(min(max(year, 0), 9999), 4)
        byte("-")
        digits(month, 2)
        byte("-")
        digits(day, 2)
        byte("T")
        digits(time / 3600, 2)
        byte(":")
        digits(time / 60 % 60, 2)
        byte(":")
        digits(time % 60, 2)
        byte(".")
        digits(fraction, 6)
        byte("Z")
        return at
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    static func civil(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    fileprivate func floorDiv(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }
}
