import Foundation
import Testing

@testable import FeedsCore

@Suite struct ActivityCursorTests {
    static let cursors: [ActivityCursor] = [
        ActivityCursor(micros: 1_714_564_800_123_456, id: "a1", direction: .older),
        ActivityCursor(micros: 0, id: "x", direction: .newer),
        ActivityCursor(micros: -1, id: "before-1970", direction: .older),
        ActivityCursor(micros: WireTime.microseconds.upperBound, id: "id|with|pipes", direction: .newer),
        ActivityCursor(micros: WireTime.microseconds.lowerBound, id: "year-1", direction: .older),
        ActivityCursor(micros: 42, id: "ünïcødé ✓", direction: .older),
        // Bytes whose standard base64 holds '+' and '/', and a length that needs padding.
        ActivityCursor(micros: 7, id: "?~>>?~", direction: .newer),
        ActivityCursor(micros: 7, id: "ab", direction: .older),
        ActivityCursor(micros: 7, id: "abc", direction: .older),
    ]

    @Test(arguments: cursors)
    func tokenRoundTrips(cursor: ActivityCursor) throws {
        let decoded = try ActivityCursor(token: cursor.token, expected: cursor.direction, field: "next")
        #expect(decoded == cursor)
    }

    @Test(arguments: cursors)
    func tokenIsURLSafeWithoutPadding(cursor: ActivityCursor) {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        #expect(!cursor.token.isEmpty)
        #expect(cursor.token.allSatisfy(allowed.contains))
    }

    @Test func tokenEncodesDirectionMicrosAndID() {
        let cursor = ActivityCursor(micros: 5, id: "a", direction: .older)
        #expect(cursor.token == "bnw1fGE")  // base64url("n|5|a")
    }

    @Test(arguments: cursors)
    func wrongDirectionIsRefused(cursor: ActivityCursor) {
        let other: ActivityCursor.Direction = cursor.direction == .older ? .newer : .older
        let error = #expect(throws: FeedsError.self) {
            try ActivityCursor(token: cursor.token, expected: other, field: "prev")
        }
        #expect(error?.kind == .input)
        #expect(error?.field == "prev")
    }

    static func encode(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static let garbage: [String] = [
        "",
        "!!!!",
        "not a cursor",
        "a",  // a length no base64 can have
        "%%%%====",
        encode("n|5"),  // too few parts
        encode("n|5|"),  // empty id
        encode("x|5|a"),  // unknown direction
        encode("|5|a"),
        encode("n|five|a"),  // micros not a number
        encode("n||a"),
        encode("n|99999999999999999999|a"),  // micros overflow Int64
        encode("n|9223372036854775807|a"),  // past 2262: its nanoseconds would overflow
        encode("n|-9223372036854775808|a"),
        encode("n|1.5|a"),
        Data([0x6E, 0x7C, 0x31, 0x7C, 0xFF, 0xFE]).base64EncodedString(),  // not UTF-8
    ]

    @Test(arguments: garbage)
    func garbageIsRefused(token: String) {
        let error = #expect(throws: FeedsError.self) {
            try ActivityCursor(token: token, expected: .older, field: "next")
        }
        #expect(error?.kind == .input)
        #expect(error?.field == "next")
    }

    @Test func cursorAfterActivityTakesItsPosition() {
        let created = Date(timeIntervalSince1970: 1_714_564_800.123456)
        let cursor = ActivityCursor(after: Fixture.activity(id: "z9", createdAt: created), direction: .newer)
        #expect(cursor.id == "z9")
        #expect(cursor.micros == 1_714_564_800_123_456)
        #expect(cursor.direction == .newer)
        #expect(cursor.date.microsecondsSince1970 == cursor.micros)
    }

    @Test(arguments: [0, 1, -1, 999_999, -1_000_001, 1_714_564_800_123_456, 4_102_444_800_000_001] as [Int64])
    func microsRoundTripThroughDate(micros: Int64) {
        #expect(Date(microsecondsSince1970: micros).microsecondsSince1970 == micros)
    }

    @Test func microsecondsRoundToNearest() {
        #expect(Date(timeIntervalSince1970: 1.000_000_4).microsecondsSince1970 == 1_000_000)
        #expect(Date(timeIntervalSince1970: 1.000_000_6).microsecondsSince1970 == 1_000_001)
    }

    @Test func directionRawValues() {
        #expect(ActivityCursor.Direction.older.rawValue == "n")
        #expect(ActivityCursor.Direction.newer.rawValue == "p")
    }
}
