import Foundation
import Testing

@testable import FeedsCore

@Suite struct RFC3339Tests {
    @Test(
        arguments: [
            (0, "1970-01-01T00:00:00.000000Z"),
            (1, "1970-01-01T00:00:00.000001Z"),
            (-1, "1969-12-31T23:59:59.999999Z"),
            (-1_000_000, "1969-12-31T23:59:59.000000Z"),
            (-1_500_000, "1969-12-31T23:59:58.500000Z"),
            (1_714_564_800_000_000, "2024-05-01T12:00:00.000000Z"),
            (1_714_564_800_123_456, "2024-05-01T12:00:00.123456Z"),
            (1_714_564_800_000_010, "2024-05-01T12:00:00.000010Z"),
            (951_782_400_999_999, "2000-02-29T00:00:00.999999Z"),
            (-62_135_596_800_000_000, "0001-01-01T00:00:00.000000Z"),
            (-12_219_292_800_000_000, "1582-10-15T00:00:00.000000Z"),
            (-12_219_379_200_000_000, "1582-10-14T00:00:00.000000Z"),
            (4_107_542_400_000_000, "2100-03-01T00:00:00.000000Z"),
        ] as [(Int64, String)])
    func formatsWithMicroseconds(micros: Int64, text: String) {
        #expect(RFC3339.string(from: Date(microsecondsSince1970: micros)) == text)
    }

    /// The integer formatter against Foundation's, over every kind of day from 1583 (Foundation
    /// switches to the Julian calendar before October 1582; RFC 3339 stays Gregorian) to 9999.
    @Test func formattingAgreesWithFoundationOnRandomTimes() {
        var generator = SystemRandomNumberGenerator()
        let first: Int64 = -12_212_553_600_000_000  // 1583-01-01
        let last: Int64 = 253_402_300_799_999_999  // 9999-12-31T23:59:59.999999
        for _ in 0..<20_000 {
            let date = Date(microsecondsSince1970: Int64.random(in: first...last, using: &generator))
            let micros = date.microsecondsSince1970
            var whole = Date(timeIntervalSince1970: Double(micros.floorDivided(by: 1_000_000)))
                .formatted(Date.ISO8601FormatStyle())
            whole.removeLast()
            let fraction = String(micros - micros.floorDivided(by: 1_000_000) * 1_000_000)
            let expected = whole + "." + String(repeating: "0", count: 6 - fraction.count) + fraction + "Z"
            #expect(RFC3339.string(from: date) == expected, "\(micros)")
        }
    }

    @Test func formattingRoundsToTheMicrosecond() {
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 0.000_000_6)) == "1970-01-01T00:00:00.000001Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 0.999_999_9)) == "1970-01-01T00:00:01.000000Z")
    }

    @Test(
        arguments: [
            ("2024-05-01T12:00:00Z", 1_714_564_800_000_000),
            ("2024-05-01T12:00:00.5Z", 1_714_564_800_500_000),
            ("2024-05-01T12:00:00.123Z", 1_714_564_800_123_000),
            ("2024-05-01T12:00:00.123456Z", 1_714_564_800_123_456),
            ("2024-05-01T12:00:00.123456789Z", 1_714_564_800_123_457),
            ("2024-05-01T14:00:00+02:00", 1_714_564_800_000_000),
            ("2024-05-01T07:30:00.25-04:30", 1_714_564_800_250_000),
            ("1969-12-31T23:59:59.999999Z", -1),
        ] as [(String, Int64)])
    func parses(text: String, micros: Int64) throws {
        let date = try #require(RFC3339.date(from: text))
        #expect(date.microsecondsSince1970 == micros)
    }

    @Test(arguments: [
        "", "not a time", "2024-05-01", "12:00:00Z", "2024-05-01 12:00:00", "2024-13-01T12:00:00Z",
        "1714564800",
        // Out-of-range fields, which Foundation's parser alone would roll over into the next unit.
        "2024-05-01T25:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T12:61:00Z", "2024-05-01T12:00:61Z",
        "2024-05-32T12:00:00Z", "2024-00-10T12:00:00Z", "2024-05-00T12:00:00Z", "2024-05-01T12:00:00+24:00",
    ])
    func rejects(text: String) {
        #expect(RFC3339.date(from: text) == nil)
    }

    @Test func parsesLeapDay() throws {
        let date = try #require(RFC3339.date(from: "2024-02-29T12:00:00Z"))
        #expect(RFC3339.string(from: date) == "2024-02-29T12:00:00.000000Z")
    }

    /// Days past the end of their month pass the shape check (any day 01–31); Foundation would roll
    /// them over into the next month (2024-02-30 as 2024-03-01).
    @Test(arguments: ["2024-02-30T12:00:00Z", "2023-02-29T12:00:00Z", "2024-04-31T12:00:00Z"])
    func rejectsDaysPastTheEndOfTheMonth(text: String) {
        #expect(RFC3339.date(from: text) == nil)
    }

    @Test(arguments: [0, -1, 1, 1_714_564_800_123_456, 4_102_444_800_000_001] as [Int64])
    func formattedTextParsesBack(micros: Int64) throws {
        let text = RFC3339.string(from: Date(microsecondsSince1970: micros))
        let date = try #require(RFC3339.date(from: text))
        #expect(date.microsecondsSince1970 == micros)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return self % divisor < 0 ? quotient - 1 : quotient
    }
}
