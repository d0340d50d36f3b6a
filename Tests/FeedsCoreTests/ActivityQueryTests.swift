import Testing

@testable import FeedsCore

@Suite struct ActivityQueryTests {
    static let older = ActivityCursor(micros: 1_000, id: "a", direction: .older)
    static let newer = ActivityCursor(micros: 2_000, id: "b", direction: .newer)

    @Test(
        arguments: [
            (nil, 25),
            (0, 25),
            (1, 1),
            (25, 25),
            (99, 99),
            (100, 100),
        ] as [(Int?, Int)])
    func limitDefaultsAndBounds(limit: Int?, expected: Int) throws {
        let (pageLimit, cursor) = try ActivityQuery.page(limit: limit, next: nil, prev: nil)
        #expect(pageLimit == expected)
        #expect(cursor == nil)
    }

    @Test(arguments: [101, 1_000, -1, Int.min, Int.max])
    func limitOutOfRangeIsRefused(limit: Int) {
        let error = #expect(throws: FeedsError.self) { try ActivityQuery.page(limit: limit, next: nil, prev: nil) }
        #expect(error?.kind == .input)
        #expect(error?.field == "limit")
    }

    @Test func nextDecodesAnOlderCursor() throws {
        let (limit, cursor) = try ActivityQuery.page(limit: 10, next: Self.older.token, prev: nil)
        #expect(limit == 10)
        #expect(cursor == Self.older)
    }

    @Test func prevDecodesANewerCursor() throws {
        let (limit, cursor) = try ActivityQuery.page(limit: 0, next: nil, prev: Self.newer.token)
        #expect(limit == 25)
        #expect(cursor == Self.newer)
    }

    @Test func emptyCursorsMeanTheFirstPage() throws {
        #expect(try ActivityQuery.page(limit: nil, next: "", prev: nil).1 == nil)
        #expect(try ActivityQuery.page(limit: nil, next: nil, prev: "").1 == nil)
    }

    @Test func nextAndPrevTogetherAreRefused() {
        let error = #expect(throws: FeedsError.self) {
            try ActivityQuery.page(limit: nil, next: Self.older.token, prev: Self.newer.token)
        }
        #expect(error?.kind == .input)
        #expect(error?.field == "next")
    }

    @Test func prevTokenGivenAsNextIsRefused() {
        let error = #expect(throws: FeedsError.self) {
            try ActivityQuery.page(limit: nil, next: Self.newer.token, prev: nil)
        }
        #expect(error?.field == "next")
    }

    @Test func nextTokenGivenAsPrevIsRefused() {
        let error = #expect(throws: FeedsError.self) {
            try ActivityQuery.page(limit: nil, next: nil, prev: Self.older.token)
        }
        #expect(error?.field == "prev")
    }

    @Test func garbageCursorIsRefused() {
        let error = #expect(throws: FeedsError.self) { try ActivityQuery.page(limit: nil, next: "@@@", prev: nil) }
        #expect(error?.kind == .input)
        #expect(error?.field == "next")
    }

    @Test func queryDefaults() {
        let query = ActivityQuery(viewer: .server)
        #expect(query.limit == ActivityQuery.defaultLimit)
        #expect(ActivityQuery.defaultLimit == 25)
        #expect(ActivityQuery.maxLimit == 100)
        #expect(query.ids == nil && query.feeds == nil && query.userIDs == nil && query.types == nil)
        #expect(query.createdAt.isEmpty)
        #expect(query.cursor == nil)
    }
}
