import Foundation
import Testing

@testable import FeedsCore

@Suite struct ActivityFilterTests {
    func query(_ filter: JSONObject) throws(FeedsError) -> ActivityQuery {
        var query = ActivityQuery(viewer: .server)
        try ActivityFilter.apply(filter, to: &query)
        return query
    }

    func refusal(_ filter: JSONObject) -> FeedsError? {
        #expect(throws: FeedsError.self) { try query(filter) }
    }

    @Test func emptyFilterChangesNothing() throws {
        #expect(try query([:]) == ActivityQuery(viewer: .server))
    }

    @Test(arguments: [
        (JSONValue.object(["$in": .array([.string("user:a"), .string("user:b")])]), ["user:a", "user:b"]),
        (.object(["$eq": .string("user:a")]), ["user:a"]),
        (.string("user:a"), ["user:a"]),
    ])
    func feeds(condition: JSONValue, expected: [String]) throws {
        let result = try query(["feeds": condition])
        #expect(result.feeds == expected)
        #expect(result.userIDs == nil && result.types == nil && result.createdAt.isEmpty)
    }

    @Test(arguments: [
        (JSONValue.string("alice"), ["alice"]),
        (.object(["$eq": .string("alice")]), ["alice"]),
        (.object(["$in": .array([.string("alice"), .string("bob")])]), ["alice", "bob"]),
        (.object(["$in": .array([])]), []),
    ])
    func userID(condition: JSONValue, expected: [String]) throws {
        let result = try query(["user_id": condition])
        #expect(result.userIDs == expected)
        #expect(result.types == nil && result.feeds == nil)
    }

    @Test(
        arguments: ["type", "activity_type"],
        [
            (JSONValue.string("post"), ["post"]),
            (.object(["$eq": .string("post")]), ["post"]),
            (.object(["$in": .array([.string("post"), .string("share")])]), ["post", "share"]),
        ])
    func type(field: String, condition: (JSONValue, [String])) throws {
        let result = try query([field: condition.0])
        #expect(result.types == condition.1)
        #expect(result.userIDs == nil)
    }

    @Test func idsNameAtMostAPage() throws {
        #expect(try query(["id": .string("a")]).ids == ["a"])
        #expect(try query(["id": .object(["$in": .array([.string("a"), .string("b")])])]).ids == ["a", "b"])
        let many = JSONValue.array((0...ActivityQuery.maxLimit).map { .string("a\($0)") })
        #expect(throws: FeedsError.self) { try query(["id": .object(["$in": many])]) }
    }

    @Test func severalFieldsCombine() throws {
        let result = try query([
            "feeds": .object(["$in": .array([.string("user:a")])]),
            "user_id": .string("a"),
            "type": .object(["$in": .array([.string("post")])]),
        ])
        #expect(result.feeds == ["user:a"])
        #expect(result.userIDs == ["a"])
        #expect(result.types == ["post"])
    }

    @Test func createdAtBounds() throws {
        let result = try query([
            "created_at": .object([
                "$lte": .string("2024-05-02T00:00:00Z"),
                "$gt": .string("2024-05-01T12:00:00.5Z"),
                "$lt": .string("2024-05-03T02:00:00+02:00"),
                "$gte": .string("2024-05-01T12:00:00Z"),
            ])
        ])
        let base = Fixture.epoch
        #expect(
            result.createdAt == [
                .greaterThan(base.addingTimeInterval(0.5)),
                .greaterOrEqual(base),
                .lessThan(base.addingTimeInterval(36 * 3600)),
                .lessOrEqual(base.addingTimeInterval(12 * 3600)),
            ]
        )
    }

    /// Stream sends times as integers of nanoseconds; SDKs send RFC 3339, with or without an offset.
    @Test(arguments: [
        JSONValue.number(1_714_564_800_000_000_000), .string("1714564800000000000"), .string("2024-05-01T12:00:00+00:00"),
        .string("2024-05-01T12:00:00"), .string("2024-05-01T14:00:00.000000+02:00"),
    ])
    func createdAtTakesNanosecondsAndRFC3339(operand: JSONValue) throws {
        #expect(try query(["created_at": .object(["$gt": operand])]).createdAt == [.greaterThan(Fixture.epoch)])
    }

    @Test(arguments: [
        ("$gt", TimeBound.greaterThan(Fixture.epoch)),
        ("$gte", .greaterOrEqual(Fixture.epoch)),
        ("$lt", .lessThan(Fixture.epoch)),
        ("$lte", .lessOrEqual(Fixture.epoch)),
    ])
    func createdAtSingleBound(op: String, bound: TimeBound) throws {
        #expect(try query(["created_at": .object([op: .string("2024-05-01T12:00:00Z")])]).createdAt == [bound])
    }

    @Test(arguments: [
        ("status", JSONValue.string("x")),
        ("parent_id", .object(["$in": .array([.string("a")])])),
        ("text", .string("hello")),
        ("Feeds", .object(["$in": .array([.string("user:a")])])),
    ])
    func unsupportedFieldIsRefused(field: String, condition: JSONValue) {
        let error = refusal([field: condition])
        #expect(error?.kind == .input)
        #expect(error?.field == "filter.\(field)")
    }

    @Test(arguments: [
        ("user_id", JSONValue.object(["$ne": .string("a")])),
        ("user_id", .object(["$gt": .string("a")])),
        ("user_id", .object([:])),
        ("user_id", .object(["$eq": .string("a"), "$in": .array([.string("a")])])),
        ("user_id", .number(1)),
        ("user_id", .null),
        ("user_id", .array([.string("a")])),
        ("user_id", .object(["$eq": .number(1)])),
        ("user_id", .object(["$eq": .array([.string("a")])])),
        ("user_id", .object(["$in": .string("a")])),
        ("user_id", .object(["$in": .array([.string("a"), .number(2)])])),
        ("type", .object(["$contains": .string("p")])),
        ("type", .bool(true)),
        ("activity_type", .object(["$in": .array([.null])])),
        ("feeds", .object(["$nin": .array([.string("user:a")])])),
        ("feeds", .object(["$in": .string("user:a")])),
        ("feeds", .array([.string("user:a")])),
        ("created_at", .string("2024-05-01T12:00:00Z")),
        ("created_at", .object([:])),
        ("created_at", .object(["$eq": .string("2024-05-01T12:00:00Z")])),
        ("created_at", .object(["$gt": .string("yesterday")])),
        ("created_at", .object(["$gt": .string("2024-05-01")])),
        ("created_at", .object(["$gt": .number(1e30)])),
        ("created_at", .object(["$gt": .bool(true)])),
        ("created_at", .object(["$gt": .string("2024-05-01T12:00:00Z"), "$between": .string("2024-05-01T12:00:00Z")])),
    ])
    func unsupportedOperatorOrOperandIsRefused(field: String, condition: JSONValue) {
        let error = refusal([field: condition])
        #expect(error?.kind == .input)
        #expect(error?.field == "filter.\(field)")
    }
}
