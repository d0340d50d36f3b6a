import Foundation
import Testing

@testable import FeedsCore

/// Shared builders for the FeedsCore tests.
enum Fixture {
    static let epoch = Date(timeIntervalSince1970: 1_714_564_800)  // 2024-05-01T12:00:00Z

    /// A valid draft with every optional field left to its default, except those overridden.
    static func draft(
        id: String? = "a1", type: String? = "post", userID: String = "alice", text: String? = "hello",
        feeds: [String]? = ["user:alice"], visibility: String? = nil, visibilityTag: String? = nil,
        restrictReplies: String? = nil, custom: JSONObject? = nil, attachments: [JSONObject]? = nil
    ) throws(FeedsError) -> ActivityDraft {
        try ActivityDraft(
            id: id, type: type, userID: userID, text: text, feeds: feeds, visibility: visibility,
            visibilityTag: visibilityTag, restrictReplies: restrictReplies, custom: custom,
            attachments: attachments?.map { StoredAttachment(payload: $0) }
        )
    }

    /// A stored activity, as a patch sees it.
    static func activity(
        id: String = "a1", type: String = "post", userID: String = "alice", text: String? = "hello",
        feeds: [String] = ["user:alice"], visibility: Visibility = .public, visibilityTag: String? = nil,
        restrictReplies: String = "everyone", custom: JSONObject = ["mood": .string("happy"), "n": .number(1)],
        attachments: [JSONObject] = [["type": .string("image"), "image_url": .string("https://x/1.png")]],
        createdAt: Date = epoch
    ) -> Activity {
        Activity(
            id: id, type: type, user: User(id: userID, createdAt: epoch, updatedAt: epoch), text: text, feeds: feeds,
            visibility: visibility, visibilityTag: visibilityTag, restrictReplies: restrictReplies, custom: custom,
            attachments: attachments.map { StoredAttachment(payload: $0) }, createdAt: createdAt, updatedAt: createdAt,
            editedAt: nil, deletedAt: nil
        )
    }
}
