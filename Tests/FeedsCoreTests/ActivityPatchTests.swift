import Testing

@testable import FeedsCore

@Suite struct ActivityPatchTests {
    let stored = Fixture.activity()

    func apply(set: JSONObject = [:], unset: [String] = [], to activity: Activity? = nil) throws(FeedsError)
        -> ActivityDraft
    {
        // Links nothing: every given attachment is kept as it came, as for a URL not of ours.
        let patch = ActivityPatch(set: set, unset: unset)
        let linked = try patch.requestedAttachments()?.map { StoredAttachment(payload: $0) }
        return try patch.apply(to: activity ?? stored, linked: linked)
    }

    @Test func emptyPatchIsRefused() {
        let error = #expect(throws: FeedsError.self) { try apply() }
        #expect(error?.kind == .input)
        #expect(error?.field == "set")
    }

    @Test func untouchedFieldsAreKept() throws {
        let draft = try apply(set: ["text": .string("new")])
        #expect(draft.id == stored.id)
        #expect(draft.userID == stored.user.id)
        #expect(draft.type == stored.type)
        #expect(draft.feeds.map(\.description) == stored.feeds)
        #expect(draft.visibility == stored.visibility)
        #expect(draft.restrictReplies == stored.restrictReplies)
        #expect(draft.custom == stored.custom)
        #expect(draft.attachments == stored.attachments)
    }

    @Test func setText() throws {
        #expect(try apply(set: ["text": .string("new")]).text == "new")
    }

    @Test func setTextToNullClearsIt() throws {
        #expect(try apply(set: ["text": .null]).text == nil)
    }

    @Test func unsetText() throws {
        #expect(try apply(unset: ["text"]).text == nil)
    }

    @Test func setType() throws {
        #expect(try apply(set: ["type": .string("share")]).type == "share")
    }

    @Test func setCustomReplacesIt() throws {
        let draft = try apply(set: ["custom": .object(["only": .bool(true)])])
        #expect(draft.custom == ["only": .bool(true)])
    }

    @Test func unsetCustomEmptiesIt() throws {
        #expect(try apply(unset: ["custom"]).custom.isEmpty)
    }

    @Test func setCustomKeyAddsAndReplacesOneKey() throws {
        let draft = try apply(set: ["custom.mood": .string("sad"), "custom.extra": .array([.number(2)])])
        #expect(draft.custom == ["mood": .string("sad"), "n": .number(1), "extra": .array([.number(2)])])
    }

    @Test func customKeyMayContainDots() throws {
        let draft = try apply(set: ["custom.a.b": .null])
        #expect(draft.custom["a.b"] == .null)
        #expect(draft.custom["mood"] == .string("happy"))
    }

    @Test func unsetCustomKeyRemovesOnlyThatKey() throws {
        let draft = try apply(unset: ["custom.mood", "custom.absent"])
        #expect(draft.custom == ["n": .number(1)])
    }

    @Test func setAttachmentsReplacesThem() throws {
        let attachment: JSONObject = ["type": .string("file"), "asset_url": .string("https://x/f")]
        let draft = try apply(set: ["attachments": .array([.object(attachment)])])
        #expect(draft.attachments.map(\.payload) == [attachment])
    }

    @Test func setAttachmentsToEmptyArray() throws {
        #expect(try apply(set: ["attachments": .array([])]).attachments.isEmpty)
    }

    @Test func unsetAttachments() throws {
        #expect(try apply(unset: ["attachments"]).attachments.isEmpty)
    }

    @Test func setVisibilityAndTagTogether() throws {
        let draft = try apply(set: ["visibility": .string("tag"), "visibility_tag": .string("vip")])
        #expect(draft.visibility == .tag)
        #expect(draft.visibilityTag == "vip")
    }

    @Test func unsetVisibilityTag() throws {
        let tagged = Fixture.activity(visibility: .private, visibilityTag: "vip")
        #expect(try apply(unset: ["visibility_tag"], to: tagged).visibilityTag == nil)
    }

    @Test func setRestrictReplies() throws {
        #expect(try apply(set: ["restrict_replies": .string("nobody")]).restrictReplies == "nobody")
    }

    @Test func setFeeds() throws {
        let draft = try apply(set: ["feeds": .array([.string("timeline:alice"), .string("user:alice")])])
        #expect(draft.feeds.map(\.description) == ["timeline:alice", "user:alice"])
    }

    @Test func unsetAppliesAfterSet() throws {
        #expect(try apply(set: ["text": .string("new")], unset: ["text"]).text == nil)
        #expect(try apply(set: ["custom.x": .bool(true)], unset: ["custom.x"]).custom["x"] == nil)
    }

    /// `set` naming both `custom` and `custom.x` must not depend on dictionary order: the whole object
    /// is applied first and `custom.x` on top of it.
    @Test(arguments: 0..<20)
    func wholeCustomAndCustomKeyTogetherDoNotDependOnOrder(_ run: Int) throws {
        var set: JSONObject = ["custom.b": .number(2), "custom": .object(["a": .number(1)])]
        set["filler\(run)"] = nil  // a fresh dictionary each run, so storage order varies
        let draft = try apply(set: set)
        #expect(draft.custom == ["a": .number(1), "b": .number(2)])
    }

    @Test func settableFieldsListsTheTopLevelFields() {
        #expect(
            ActivityPatch.settableFields
                == [
                    "text", "type", "custom", "attachments", "visibility", "visibility_tag", "restrict_replies", "feeds",
                    "poll_id", "parent_id", "mentioned_user_ids",
                ]
        )
        #expect(
            ActivityPatch.unsettableFields
                == ["text", "custom", "attachments", "visibility_tag", "poll_id", "parent_id", "mentioned_user_ids"])
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        let name: String
        let set: JSONObject
        let unset: [String]
        let field: String
        var testDescription: String { name }
        init(_ name: String, set: JSONObject = [:], unset: [String] = [], field: String) {
            self.name = name
            self.set = set
            self.unset = unset
            self.field = field
        }
    }

    static let refused: [Refused] = [
        Refused("set unknown field", set: ["colour": .string("red")], field: "set.colour"),
        Refused("set id", set: ["id": .string("other")], field: "set.id"),
        Refused("set user_id", set: ["user_id": .string("bob")], field: "set.user_id"),
        Refused("set bare custom. prefix", set: ["custom.": .string("x")], field: "set.custom."),
        Refused("unset unknown field", unset: ["colour"], field: "unset"),
        Refused("unset type", unset: ["type"], field: "unset"),
        Refused("unset feeds", unset: ["feeds"], field: "unset"),
        Refused("unset bare custom. prefix", unset: ["custom."], field: "unset"),
        Refused("text not a string", set: ["text": .number(1)], field: "set.text"),
        Refused("type null", set: ["type": .null], field: "set.type"),
        Refused("type not a string", set: ["type": .bool(true)], field: "set.type"),
        Refused("visibility not a string", set: ["visibility": .number(1)], field: "set.visibility"),
        Refused("visibility_tag not a string", set: ["visibility_tag": .number(1)], field: "set.visibility_tag"),
        Refused("restrict_replies null", set: ["restrict_replies": .null], field: "set.restrict_replies"),
        Refused("custom not an object", set: ["custom": .array([])], field: "set.custom"),
        Refused("attachments not an array", set: ["attachments": .object([:])], field: "set.attachments"),
        Refused("attachments holding a string", set: ["attachments": .array([.string("x")])], field: "set.attachments"),
        Refused("feeds not an array", set: ["feeds": .string("user:a")], field: "set.feeds"),
        Refused("feeds holding a number", set: ["feeds": .array([.number(1)])], field: "set.feeds"),
        // The patched result is validated as a whole draft.
        Refused("empty type", set: ["type": .string("")], field: "type"),
        Refused("bad feed", set: ["feeds": .array([.string("nocolon")])], field: "feeds"),
        Refused("no feeds", set: ["feeds": .array([])], field: "feeds"),
        Refused("unknown visibility", set: ["visibility": .string("friends")], field: "visibility"),
        Refused("tag visibility without tag", set: ["visibility": .string("tag")], field: "visibility_tag"),
        Refused("unknown restrict_replies", set: ["restrict_replies": .string("all")], field: "restrict_replies"),
    ]

    @Test(arguments: refused)
    func refusesNamingTheField(_ refusal: Refused) {
        let error = #expect(throws: FeedsError.self) { try apply(set: refusal.set, unset: refusal.unset) }
        #expect(error?.kind == .input)
        #expect(error?.field == refusal.field)
    }

    @Test func unsettingTheTagOfATagActivityIsRefused() {
        let tagged = Fixture.activity(visibility: .tag, visibilityTag: "vip")
        let error = #expect(throws: FeedsError.self) { try apply(unset: ["visibility_tag"], to: tagged) }
        #expect(error?.field == "visibility_tag")
    }
}
