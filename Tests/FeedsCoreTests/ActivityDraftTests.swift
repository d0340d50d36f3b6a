import Foundation
import Testing

@testable import FeedsCore

@Suite struct ActivityDraftTests {
    @Test func minimalDraftTakesDefaults() throws {
        let draft = try Fixture.draft(text: nil)
        #expect(draft.id == "a1")
        #expect(draft.type == "post")
        #expect(draft.userID == "alice")
        #expect(draft.text == nil)
        #expect(draft.feeds == [try FeedID("user:alice")])
        #expect(draft.visibility == .public)
        #expect(draft.visibilityTag == nil)
        #expect(draft.restrictReplies == "everyone")
        #expect(draft.custom.isEmpty)
        #expect(draft.attachments.isEmpty)
    }

    @Test func keepsEveryGivenField() throws {
        let custom: JSONObject = ["k": .array([.bool(true), .null])]
        let attachments: [JSONObject] = [["type": .string("image")], ["type": .string("video")]]
        let draft = try Fixture.draft(
            id: "x", type: "share", userID: "bob", text: "hi", feeds: ["user:bob", "timeline:bob"],
            visibility: "tag", visibilityTag: "friends", restrictReplies: "nobody", custom: custom,
            attachments: attachments
        )
        #expect(draft.id == "x")
        #expect(draft.type == "share")
        #expect(draft.userID == "bob")
        #expect(draft.text == "hi")
        #expect(draft.feeds.map(\.description) == ["user:bob", "timeline:bob"])
        #expect(draft.visibility == .tag)
        #expect(draft.visibilityTag == "friends")
        #expect(draft.restrictReplies == "nobody")
        #expect(draft.custom == custom)
        #expect(draft.attachments.map(\.payload) == attachments)
    }

    @Test func generatesLowercaseUUIDWhenIDMissing() throws {
        let first = try Fixture.draft(id: nil)
        let second = try Fixture.draft(id: nil)
        #expect(UUID(uuidString: first.id) != nil)
        #expect(first.id == first.id.lowercased())
        #expect(first.id.count == 36)
        #expect(first.id != second.id)
    }

    @Test func duplicateFeedsCollapseInOrder() throws {
        let draft = try Fixture.draft(feeds: ["user:a", "timeline:a", "user:a"])
        #expect(draft.feeds.map(\.description) == ["user:a", "timeline:a"])
    }

    @Test(arguments: Visibility.allCases)
    func acceptsEveryVisibility(visibility: Visibility) throws {
        let draft = try Fixture.draft(visibility: visibility.rawValue, visibilityTag: "t")
        #expect(draft.visibility == visibility)
    }

    @Test(arguments: ["everyone", "people_i_follow", "nobody"])
    func acceptsEveryRestrictReplies(value: String) throws {
        #expect(try Fixture.draft(restrictReplies: value).restrictReplies == value)
    }

    @Test(arguments: [255, 1])
    func acceptsBoundaryLengths(length: Int) throws {
        let text = String(repeating: "t", count: length)
        let draft = try Fixture.draft(id: text, type: text, userID: text)
        #expect(draft.id.count == length && draft.type.count == length && draft.userID.count == length)
    }

    @Test func acceptsMaxFeeds() throws {
        let feeds = (0..<ActivityDraft.maxFeeds).map { "user:u\($0)" }
        #expect(ActivityDraft.maxFeeds == 25)
        #expect(try Fixture.draft(feeds: feeds).feeds.count == 25)
    }

    @Test func acceptsVisibilityTagOf32Bytes() throws {
        let tag = String(repeating: "v", count: 32)
        #expect(try Fixture.draft(visibility: "tag", visibilityTag: tag).visibilityTag == tag)
    }

    /// One invalid input and the field its error must name.
    struct Invalid: Sendable, CustomTestStringConvertible {
        let name: String
        let field: String
        let make: @Sendable () throws -> ActivityDraft
        var testDescription: String { name }
    }

    static let long = String(repeating: "x", count: 256)

    static let invalid: [Invalid] = [
        Invalid(name: "empty id", field: "id") { try Fixture.draft(id: "") },
        Invalid(name: "id over 255", field: "id") { try Fixture.draft(id: long) },
        Invalid(name: "missing type", field: "type") { try Fixture.draft(type: nil) },
        Invalid(name: "empty type", field: "type") { try Fixture.draft(type: "") },
        Invalid(name: "type over 255", field: "type") { try Fixture.draft(type: long) },
        Invalid(name: "empty user_id", field: "user_id") { try Fixture.draft(userID: "") },
        Invalid(name: "user_id over 255", field: "user_id") { try Fixture.draft(userID: long) },
        Invalid(name: "missing feeds", field: "feeds") { try Fixture.draft(feeds: nil) },
        Invalid(name: "no feeds", field: "feeds") { try Fixture.draft(feeds: []) },
        Invalid(name: "26 feeds", field: "feeds") { try Fixture.draft(feeds: (0...25).map { "user:u\($0)" }) },
        Invalid(name: "feed without colon", field: "feeds") { try Fixture.draft(feeds: ["user:a", "timeline"]) },
        Invalid(name: "feed with bad character", field: "feeds") { try Fixture.draft(feeds: ["user:a.b"]) },
        Invalid(name: "unknown visibility", field: "visibility") { try Fixture.draft(visibility: "friends") },
        Invalid(name: "visibility case", field: "visibility") { try Fixture.draft(visibility: "Public") },
        Invalid(name: "tag without tag", field: "visibility_tag") { try Fixture.draft(visibility: "tag") },
        Invalid(name: "tag with empty tag", field: "visibility_tag") {
            try Fixture.draft(visibility: "tag", visibilityTag: "")
        },
        Invalid(name: "tag over 32", field: "visibility_tag") {
            try Fixture.draft(visibility: "tag", visibilityTag: String(repeating: "v", count: 33))
        },
        Invalid(name: "unknown restrict_replies", field: "restrict_replies") {
            try Fixture.draft(restrictReplies: "friends")
        },
        Invalid(name: "empty restrict_replies", field: "restrict_replies") { try Fixture.draft(restrictReplies: "") },
    ]

    @Test(arguments: invalid)
    func rejectsInvalidInputNamingTheField(_ invalid: Invalid) {
        let error = #expect(throws: FeedsError.self) { try invalid.make() }
        #expect(error?.kind == .input)
        #expect(error?.field == invalid.field)
    }
}
