import FeedsAPI
import FeedsCore
import FeedsTestSupport
import FeedsUploads
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import FeedsHTTP
@testable import FeedsServer
@testable import FeedsWire

/// `JSONWriter` against the reference it replaces: `JSONEncoder` over `Wire`'s generated types,
/// configured as the OpenAPI runtime configures it. Both are read back as JSON and must be equal.
@Suite struct JSONWriterTests {
    @Test func stringsAreEscapedAsJSONRequires() throws {
        let texts = [
            "", "plain", #"quote " and backslash \"#, "line\nfeed\r\ttab", "\u{0}\u{1}\u{8}\u{C}\u{1F}", "slash / stays",
            "ünïcödé ✓ 😀", "\u{2028}\u{2029}", String(repeating: "é\"", count: 300),
        ]
        for text in texts {
            var writer = JSONWriter()
            writer.string(text)
            let decoded = try JSONDecoder().decode(String.self, from: Data(writer.buffer.readableBytesView))
            #expect(decoded == text)
        }
    }

    @Test func numbersKeepTheirValue() throws {
        for number in [0, 1, -1, 42, 2.5, -0.125, 1e-7, 1e15, 1e20, 123_456_789_012, 0.1 + 0.2, Double.ulpOfOne] {
            var writer = JSONWriter()
            writer.value(.number(number))  // custom data's numbers, the only doubles written
            let text = String(buffer: writer.buffer)
            #expect(try JSONDecoder().decode(Double.self, from: Data(text.utf8)) == number, "\(text)")
            if number.rounded() == number, abs(number) < 1e15 { #expect(!text.contains(".") && !text.contains("e")) }
        }
    }

    @Test func integersAreWrittenInDecimal() throws {
        for number in [0, 7, 9, 10, 11, -1, -9, -10, 99, 100, 12_345, Int(Int32.max), Int.max, Int.min, Int.min + 1] {
            var writer = JSONWriter()
            writer.number(number)
            #expect(String(buffer: writer.buffer) == String(number))
        }
    }

    @Test func activitiesAreWrittenAsTheGeneratedTypesEncodeThem() throws {
        let pipeline = try Self.pipeline()
        var users: [String: [UInt8]] = [:]
        // Twice over: the second time each user is copied from the first.
        for activity in Self.activities(pipeline) + Self.activities(pipeline) {
            var writer = JSONWriter()
            writer.activity(activity, urls: pipeline.urls, users: &users)
            let written = try Self.parse(writer)
            #expect(written == (try Self.reference(try Wire.activity(activity, urls: pipeline.urls))))
            if activity.attachments.count == 3 {
                let text = String(buffer: writer.buffer)
                #expect(
                    text.contains(#""asset_url":"http://127.0.0.1:3030/cdn/0123456789abcdef0123456789abcdef/photo.png?Expires="#))
                #expect(text.contains("&w=512&h=512"))
            }
        }
    }

    @Test func feedsAndUsersAreWrittenAsTheGeneratedTypesEncodeThem() throws {
        for (index, user) in Self.users.enumerated() {
            var writer = JSONWriter()
            writer.user(user)
            #expect(try Self.parse(writer) == (try Self.reference(try Wire.user(user))))
            let feed = Feed(
                id: try FeedID(group: "user", id: "owner-\(index)", field: "feed"), name: user.name ?? "",
                description: "about \"me\"",
                custom: ["pinned": .bool(true), "rank": .number(3)], createdBy: user, activityCount: 12,
                createdAt: Self.now, updatedAt: Self.now.addingTimeInterval(1))
            for viewer in [Principal.server, .user(user.id), .user("someone-else")] {
                var feedWriter = JSONWriter()
                feedWriter.feed(feed, viewer: viewer)
                #expect(try Self.parse(feedWriter) == (try Self.reference(try Self.feedResponse(feed, viewer: viewer))))
            }
        }
    }

    // MARK: Samples

    static let now = Date(microsecondsSince1970: 1_795_000_000_123_456)

    static let users = [
        User(id: "alice", createdAt: now, updatedAt: now),
        User(
            id: "bob-\"quoted\"", name: "Bob ✓", image: "https://img.example/bob.png", role: "admin", language: "nl",
            teams: ["red", "blue"], custom: ["age": .number(41), "tags": .array([.string("a"), .null])],
            createdAt: now.addingTimeInterval(-86_400 * 400), updatedAt: now),
    ]

    static func activities(_ pipeline: UploadPipeline) -> [Activity] {
        let custom: JSONObject = [
            "n": .number(1), "x": .number(2.5), "big": .number(1e20), "neg": .number(-7), "ok": .bool(false), "none": .null,
            "nested": .object(["list": .array([.number(1), .string("two\n"), .object([:])])]), "emoji": .string("😀"),
        ]
        let link: JSONObject = [
            "type": .string("image"), "image_url": .string("https://x.example/y.png"), "custom": .object([:]),
            "title": .string("A \"title\""), "original_width": .number(640), "original_height": .number(480),
        ]
        let uploadedImage: JSONObject = [
            "type": .string("image"), "custom": .object(["k": .string("v")]), "mime_type": .string("image/png"),
            "file_size": .number(1234),
        ]
        let uploadedFile: JSONObject = [
            "type": .string("file"), "custom": .object([:]), "mime_type": .string("application/pdf"), "title": .string("doc.pdf"),
            "file_size": .number(99),
        ]
        return [
            Activity(
                id: "a1", type: "post", user: users[0], text: nil, feeds: ["user:alice"], visibility: .public,
                visibilityTag: nil, restrictReplies: "everyone", custom: [:], attachments: [], createdAt: now, updatedAt: now,
                editedAt: nil, deletedAt: nil),
            Activity(
                id: "a2", type: "photo", user: users[1], text: "Hello \"world\"\n\\ ✓", feeds: ["user:bob", "timeline:bob"],
                visibility: .tag, visibilityTag: "friends", restrictReplies: "nobody", custom: custom,
                attachments: [
                    StoredAttachment(payload: link),
                    StoredAttachment(
                        payload: uploadedImage, objectKey: ObjectKey(rawValue: "0123456789abcdef0123456789abcdef/photo.png")),
                    StoredAttachment(
                        payload: uploadedFile, objectKey: ObjectKey(rawValue: "fedcba9876543210fedcba9876543210/doc.pdf")),
                ], createdAt: now, updatedAt: now.addingTimeInterval(5),
                editedAt: now.addingTimeInterval(5), deletedAt: now.addingTimeInterval(9)),
            Activity(
                id: "a3", type: "post", user: users[0], text: "", feeds: [], visibility: .private, visibilityTag: nil,
                restrictReplies: "something-new", custom: ["only": .string("one")], attachments: [],
                createdAt: Date(microsecondsSince1970: -1), updatedAt: now, editedAt: nil, deletedAt: nil),
            Activity(
                id: "a4", type: "post", user: users[1], text: "liked", feeds: ["user:bob"], visibility: .public,
                visibilityTag: nil, restrictReplies: "everyone", custom: [:], attachments: [], createdAt: now, updatedAt: now,
                editedAt: nil, deletedAt: nil, engagement: engagement(on: "a4")),
            shareWithPoll(),
        ]
    }

    /// A share of a1 naming both users, shared twice itself, with a poll: votes with and without
    /// their voter (anonymous), an answer, the reader's own vote, a limit on votes.
    static func shareWithPoll() -> Activity {
        var share = Activity(
            id: "a5", type: "post", user: users[0], text: "see this", feeds: ["user:alice"], visibility: .public,
            visibilityTag: nil, restrictReplies: "everyone", custom: [:], attachments: [], createdAt: now, updatedAt: now,
            editedAt: nil, deletedAt: nil)
        share.parent = Activity(
            id: "a1", type: "post", user: users[1], text: "original", feeds: ["user:bob"], visibility: .public,
            visibilityTag: nil, restrictReplies: "everyone", custom: [:], attachments: [], createdAt: now, updatedAt: now,
            editedAt: nil, deletedAt: nil)
        (share.parentID, share.mentionedUserIDs, share.mentionedUsers) = ("a1", ["bob", "alice"], [users[1], users[0]])
        share.engagement.shareCount = 2
        share.engagement.commentCount = 1
        let vote = PollVote(id: "v1", pollID: "p1", optionID: "o1", answerText: nil, user: users[1], createdAt: now, updatedAt: now)
        let anonymous = PollVote(id: "v2", pollID: "p1", optionID: "o2", answerText: nil, user: nil, createdAt: now, updatedAt: now)
        let answer = PollVote(
            id: "v3", pollID: "p1", optionID: nil, answerText: "Other \"one\"", user: users[0], createdAt: now,
            updatedAt: now.addingTimeInterval(1))
        share.poll = Poll(
            id: "p1",
            settings: PollSettings(
                name: "Lunch?", description: "", votingVisibility: .public, maxVotesAllowed: 2, allowAnswers: true,
                custom: ["k": .number(1)]),
            options: [PollOption(id: "o1", text: "Pizza", custom: [:]), PollOption(id: "o2", text: "Soup", custom: ["c": .bool(true)])],
            voteCount: 2, answersCount: 1, voteCountsByOption: ["o1": 1, "o2": 1],
            latestVotesByOption: ["o1": [vote], "o2": [anonymous]], latestAnswers: [answer], ownVotes: [vote],
            createdBy: users[0], createdAt: now, updatedAt: now)
        return share
    }

    /// Reactions of two types by two users, the reader's own reaction and two bookmarks of theirs
    /// (one in a folder), and counts.
    static func engagement(on activityID: String) -> ActivityEngagement {
        var engagement = ActivityEngagement()
        let like = Reaction(
            activityID: activityID, type: "like", user: users[0], custom: [:], createdAt: now, updatedAt: now)
        let heart = Reaction(
            activityID: activityID, type: "heart", user: users[1], custom: ["emoji": .string("❤️")],
            createdAt: now.addingTimeInterval(1), updatedAt: now.addingTimeInterval(2))
        engagement.reactionCount = 2
        engagement.reactionGroups = [
            "like": ReactionGroup(count: 1, firstReactionAt: now, lastReactionAt: now),
            "heart": ReactionGroup(
                count: 1, firstReactionAt: now.addingTimeInterval(1), lastReactionAt: now.addingTimeInterval(1)),
        ]
        engagement.latestReactions = [heart, like]
        engagement.ownReactions = [like]
        let folder = BookmarkFolder(
            id: "f1", user: users[0], name: "Read later", custom: ["c": .number(1)], createdAt: now, updatedAt: now)
        engagement.bookmarkCount = 3
        engagement.ownBookmarks = [
            Bookmark(activityID: activityID, user: users[0], folder: folder, custom: [:], createdAt: now, updatedAt: now),
            Bookmark(
                activityID: activityID, user: users[0], folder: nil, custom: ["n": .string("x")], createdAt: now, updatedAt: now),
        ]
        engagement.commentCount = 7
        return engagement
    }

    /// The feed as the generated type; no route sends it but `FeedPageRoutes`, so this is its
    /// reference.
    static func feedResponse(_ feed: Feed, viewer: Principal) throws -> Components.Schemas.FeedResponse {
        try Wire.feed(feed, viewer: viewer)
    }

    /// A pipeline for signing URLs; its database client is never used.
    static func pipeline() throws -> UploadPipeline {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("feeds-writer-\(UUID().uuidString)")
        let configuration = FeedsConfiguration(
            apiKey: "key", apiSecret: "secret-0123456789abcdef0123456789abcdef", dataDirectory: directory)
        let client = PostgresClient(
            configuration: .init(host: "127.0.0.1", username: "unused", password: nil, database: nil, tls: .disable),
            backgroundLogger: Logger(label: "unused"))
        return try makeUploadPipeline(configuration, client: client, logger: Logger(label: "test"))
    }

    static func parse(_ writer: JSONWriter) throws -> JSONValue {
        try read(Data(writer.buffer.readableBytesView))
    }

    /// JSON as a value, with signed URLs' expiry and signature set aside.
    static func read(_ data: Data) throws -> JSONValue {
        let text = withoutSignatures(String(decoding: data, as: UTF8.self))
        return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// What the generated handlers send: the runtime's encoder, compact.
    static func reference(_ value: some Encodable) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try read(try encoder.encode(value))
    }
}
