import Foundation
import Testing

@testable import FeedsCore

@Suite struct WireTimeTests {
    @Test(arguments: [Int64(0), 1_714_564_800_123_456, 4_102_444_800_999_999, -1, 1, -2_208_988_800_000_001])
    func nanosecondsRoundTripAtMicrosecondPrecision(micros: Int64) throws {
        let date = Date(microsecondsSince1970: micros)
        let nanos = WireTime.nanoseconds(date)
        #expect(nanos == micros * 1000)
        // Through JSON, as a client reads it back: a Double, exact to well under a microsecond.
        #expect(WireTime.date(from: .number(Double(nanos)))?.microsecondsSince1970 == micros)
        #expect(WireTime.date(from: .string(String(nanos)))?.microsecondsSince1970 == micros)
    }

    /// Int64 nanoseconds reach from 1677 to 2262; a time beyond is refused, not wrapped around.
    @Test func theRangeIsWhatInt64NanosecondsHold() {
        let (lower, upper) = (WireTime.microseconds.lowerBound, WireTime.microseconds.upperBound)
        #expect(WireTime.date(from: .string(String(upper * 1000))) != nil)
        #expect(WireTime.date(from: .string(String(lower * 1000))) != nil)
        #expect(WireTime.date(from: .number(Double(upper + 1) * 1000)) == nil)
        #expect(WireTime.nanoseconds(.distantFuture) == upper * 1000)
        #expect(WireTime.nanoseconds(.distantPast) == lower * 1000)
    }

    @Test(arguments: [
        "2024-05-01T12:00:00Z", "2024-05-01T12:00:00.000+00:00", "2024-05-01T14:00:00+02:00", "2024-05-01T12:00:00",
        "1714564800000000000",
    ])
    func requestsTakeRFC3339AndNanoseconds(text: String) {
        #expect(WireTime.date(from: text) == Date(timeIntervalSince1970: 1_714_564_800))
    }

    @Test(arguments: [
        JSONValue.number(1e30), .number(-1e30), .string("92233720368547758070"), .string("3000-01-01T00:00:00Z"), .string("yesterday"), .string(""),
        .string("2024-13-01T00:00:00Z"), .bool(true), .null, .array([]), .object([:]),
    ])
    func refusesWhatIsNoTimeOrPastInt64Nanoseconds(value: JSONValue) {
        #expect(WireTime.date(from: value) == nil)
    }
}
