import Testing

@testable import FeedsCore

@Suite struct FeedIDTests {
    @Test(arguments: [
        ("user:alice", "user", "alice"),
        ("timeline:42", "timeline", "42"),
        ("my_group-2:A-b_C", "my_group-2", "A-b_C"),
        ("u:\(String(repeating: "x", count: 128))", "u", String(repeating: "x", count: 128)),
    ])
    func parsesGroupAndID(text: String, group: String, id: String) throws {
        let feed = try FeedID(text)
        #expect(feed.group == group)
        #expect(feed.id == id)
        #expect(feed.description == text)
    }

    @Test(arguments: [
        "", "user", "user:", ":alice", ":", "user:a:b", "user:al ice", "us er:alice", "user:alice!",
        "user:élan", "user/x:y", "u:\(String(repeating: "x", count: 129))",
        "\(String(repeating: "g", count: 129)):x",
    ])
    func rejectsMalformedFeeds(text: String) {
        let error = #expect(throws: FeedsError.self) { try FeedID(text) }
        #expect(error?.kind == .input)
        #expect(error?.field == "feeds")
    }

    @Test func errorNamesTheGivenField() {
        let error = #expect(throws: FeedsError.self) { try FeedID("nocolon", field: "feed") }
        #expect(error?.field == "feed")
    }

    @Test func separatePartsAreValidatedToo() throws {
        #expect(try FeedID(group: "user", id: "bob").description == "user:bob")
        let error = #expect(throws: FeedsError.self) { try FeedID(group: "user", id: "b:ob", field: "feed_id") }
        #expect(error?.field == "feed_id")
        #expect(throws: FeedsError.self) { try FeedID(group: "", id: "bob") }
    }

    @Test func equalFeedsAreEqual() throws {
        #expect(try FeedID("user:a") == FeedID(group: "user", id: "a"))
        #expect(try FeedID("user:a") != FeedID("user:A"))
    }
}
