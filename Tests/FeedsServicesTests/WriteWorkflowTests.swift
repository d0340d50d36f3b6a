import FeedsCore
import FeedsPostgres
import FeedsTestSupport
import Testing

@testable import FeedsServices

/// Each write's steps, at the service: files stored before the write are given back when the
/// write fails, and events go out only for what was written.
@Suite struct WriteWorkflowTests {
    let logger = TestDatabase.logger

    func draft(_ id: String, by user: String = "alice") throws -> ActivityDraft {
        try ActivityDraft(
            id: id, type: "post", userID: user, text: "hi", feeds: ["user:\(user)"], visibility: nil, visibilityTag: nil,
            restrictReplies: nil, custom: nil, attachments: nil)
    }

    @Test func anActivityWhoseWriteFailsGivesItsFilesBackAndSendsNothing() async throws {
        try await ServiceHarness.with { harness in
            let settings = harness.pipeline.settings.current
            let first = try await harness.activities.add(
                try draft("a1"), given: [], files: [try harness.received("one", named: "one.txt")], pollID: nil, mentions: nil,
                settings: settings, recording: nil, principal: .user("alice"), logger: logger)
            #expect(first.attachments.count == 1)
            #expect(harness.published.types == ["feeds.activity.added"])
            #expect(try await harness.objectStates() == ["attached": 1])

            // The same id again: the write refuses it after the file was stored.
            await #expect(throws: FeedsError.self) {
                try await harness.activities.add(
                    try draft("a1"), given: [], files: [try harness.received("two", named: "two.txt")], pollID: nil,
                    mentions: nil, settings: settings, recording: nil, principal: .user("alice"), logger: logger)
            }
            let states = try await harness.objectStates()
            #expect(states["attached"] == 1, "the first activity's file stays")
            #expect(states["stored"] == nil && states["reserved"] == nil, "the second's was given back: \(states)")
            #expect(harness.published.types == ["feeds.activity.added"])
        }
    }

    @Test func aCommentWhoseWriteFailsGivesItsFilesBack() async throws {
        try await ServiceHarness.with { harness in
            let comment = try CommentDraft(
                id: nil, activityID: "no-such-activity", parentID: nil, userID: "bob", text: nil, custom: nil,
                mentionedUserIDs: nil, attachments: [], filesToCome: 1)
            await #expect(throws: FeedsError.self) {
                try await harness.comments.add(
                    comment, given: [], files: [try harness.received("photo", named: "p.txt")],
                    settings: harness.pipeline.settings.current, notify: nil, principal: .user("bob"), logger: logger)
            }
            let states = try await harness.objectStates()
            #expect(states["stored"] == nil && states["attached"] == nil && states["reserved"] == nil, "\(states)")
            #expect(harness.published.types.isEmpty)
        }
    }

    @Test func aFollowBatchAnnouncesOnlyTheNewFollows() async throws {
        try await ServiceHarness.with { harness in
            func asked(_ target: String, notify: Bool = false) throws -> Follows<PostgresActivityStore>.Asked {
                (try FollowInput(source: "timeline:alice", target: target), NotificationRequest(create: notify, copyCustom: nil))
            }
            for (user, group) in [("alice", "timeline"), ("bob", "user"), ("carl", "user"), ("dora", "user")] {
                _ = try await harness.store.getOrCreateFeed(
                    try FeedID(group: group, id: user), creatorID: user, by: .server, visibility: nil,
                    details: FeedDetails(name: nil, description: nil, custom: nil),
                    logger: logger)
            }
            let first = try await harness.follows.follow(
                [try asked("user:bob"), try asked("user:carl")], batch: true, principal: .server, logger: logger)
            #expect(first.map(\.created) == [true, true])
            let again = try await harness.follows.follow(
                [try asked("user:carl"), try asked("user:dora", notify: true)], batch: true, principal: .server, logger: logger)
            #expect(again.map(\.created) == [false, true])
            await harness.notificationChanges.settled()
            let types = harness.published.types
            #expect(types.filter { $0 == "feeds.follow.created" }.count == 3, "\(types)")
            #expect(types.contains("feeds.notification_feed.updated"), "dora's notification: \(types)")
        }
    }
}
