import Crypto
import FeedsCore
import FeedsPostgres
import FeedsRealtime
import FeedsTestSupport
import FeedsUploads
import Foundation
import NIOConcurrencyHelpers
import PostgresNIO

@testable import FeedsServer
@testable import FeedsServices

/// The services on real parts without HTTP: a migrated database of their own, the uploader on a
/// local disk store, and real time's events kept as they are published. A workflow tested here is
/// the one the API runs; what HTTP adds (auth, decoding, errors' shape) is the server tests' part.
struct ServiceHarness: Sendable {
    let client: PostgresClient
    let store: PostgresActivityStore
    let pipeline: UploadPipeline
    let published: PublishedEvents
    /// Notification feeds' events, read after their writes: `settled()` before looking for them.
    let notificationChanges: NotificationChanges

    var events: Events<PostgresActivityStore> {
        Events(
            realtime: Realtime(hub: RealtimeHub(), publisher: published) { _, _, _, _ in }, urls: pipeline.urls, store: store)
    }
    var notifier: Notifier<PostgresActivityStore> {
        Notifier(
            notifications: PostgresNotificationStore(client: client), changes: notificationChanges, store: store, events: events
        ) { .notification }
    }
    var feedGroups: FeedGroupService {
        FeedGroupService(store: PostgresFeedGroupStore(client: client), settings: pipeline.settings)
    }
    var activities: Activities<PostgresActivityStore> {
        Activities(
            store: store, uploads: Uploads(pipeline: pipeline), feedGroups: feedGroups,
            polls: Polls(polls: PostgresPollStore(client: client), store: store, events: events), events: events,
            notifier: notifier, links: links)
    }
    var comments: Comments<PostgresActivityStore> {
        Comments(store: store, uploads: Uploads(pipeline: pipeline), events: events, notifier: notifier, links: links)
    }
    var links: LinkEnrichment {
        LinkEnrichment(previews: LinkPreviews(store: PostgresLinkPreviewStore(client: client), fetcher: LinkFetcher()))
    }
    var follows: Follows<PostgresActivityStore> {
        Follows(
            store: store, feedGroups: feedGroups,
            realtime: Realtime(hub: RealtimeHub(), publisher: published) { _, _, _, _ in }, events: events, notifier: notifier)
    }

    static func with(_ body: @Sendable (ServiceHarness) async throws -> Void) async throws {
        try await TestDatabase.with(migrated: true) { _, client in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-services-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let configuration = FeedsConfiguration(
                apiKey: "key", apiSecret: "secret-0123456789abcdef0123456789abcdef", dataDirectory: directory)
            let pipeline = try makeUploadPipeline(configuration, client: client, logger: TestDatabase.logger)
            let store = PostgresActivityStore(client: client, prepared: client), published = PublishedEvents()
            let events = Events(
                realtime: Realtime(hub: RealtimeHub(), publisher: published) { _, _, _, _ in }, urls: pipeline.urls, store: store)
            let changes = NotificationChanges(store: PostgresNotificationStore(client: client)) {
                events.notificationFeed($0, $1)
            }
            try await body(
                ServiceHarness(
                    client: client, store: store, pipeline: pipeline, published: published, notificationChanges: changes))
        }
    }

    /// A file as a multipart part would have left it on disk.
    func received(_ text: String, named name: String) throws -> AttachedFile {
        let url = pipeline.tempDirectory.appendingPathComponent(UUID().uuidString)
        try Data(text.utf8).write(to: url)
        let file = ReceivedFile(
            part: name, fileName: name, declaredType: "text/plain", url: url, size: Int64(text.utf8.count),
            sha256: SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined())
        return AttachedFile(type: "file", title: nil, custom: nil, file: file)
    }

    /// How many objects are in each state.
    func objectStates() async throws -> [String: Int] {
        var states: [String: Int] = [:]
        let rows = try await client.query(
            "SELECT state, count(*)::int FROM cdn_objects GROUP BY state", logger: TestDatabase.logger)
        for try await (state, count) in rows.decode((String, Int).self) { states[state] = count }
        return states
    }
}

/// Real time's events, kept in the order they were published: each event's type.
final class PublishedEvents: EventPublisher {
    private let kept = NIOLockedValueBox<[FeedEvent]>([])

    func publish(_ events: [FeedEvent]) { kept.withLockedValue { $0 += events } }

    var types: [String] {
        kept.withLockedValue { events in
            events.map { event in
                let json = try? JSONSerialization.jsonObject(with: Data(event.payload)) as? [String: Any]
                return json?["type"] as? String ?? "?"
            }
        }
    }
}
