/// What a load test sends: one kind of request, or a mix of them.
public enum Scenario: String, Sendable, CaseIterable, Codable {
    case createActivity = "create-activity"
    case readFeed = "read-feed"
    case uploadFile = "upload-file"
    case activityWithUploads = "activity-with-uploads"
    case mixed
    /// Timelines: a follow graph is set up first, then timeline reads and posts mixed; the
    /// read-back also finds every acknowledged post in the timeline of every follower.
    case timeline
    /// Sockets watching a feed while posts go on (`RealtimeRun`), not requests.
    case realtime
    /// Posts at a fixed rate, each event delivered to a webhook receiver (`WebhookRun`).
    case webhooks

    /// The `mixed` cycle, in tenths: mostly reads, as in a feed app, then posts, then files.
    static let mixedCycle: [Operation] = [
        .readFeed, .createActivity, .readFeed, .readFeed, .createActivity,
        .readFeed, .uploadFile, .readFeed, .createActivity, .activityWithUploads,
    ]

    /// The `timeline` cycle: seven timeline reads to three posts.
    static let timelineCycle: [Operation] = [
        .readTimeline, .createActivity, .readTimeline, .readTimeline, .createActivity,
        .readTimeline, .readTimeline, .createActivity, .readTimeline, .readTimeline,
    ]

    /// The operation of request number `index`; `mixed` deals them out in a fixed cycle, so any
    /// run of ten requests holds each in its share.
    public func operation(forRequest index: Int) -> Operation {
        switch self {
        case .createActivity: .createActivity
        case .readFeed: .readFeed
        case .uploadFile: .uploadFile
        case .activityWithUploads: .activityWithUploads
        case .mixed: Self.mixedCycle[index % Self.mixedCycle.count]
        case .timeline: Self.timelineCycle[index % Self.timelineCycle.count]
        case .realtime, .webhooks: .createActivity
        }
    }

    /// Whether feeds must hold a page of activities before the run reads them.
    var readsFeeds: Bool { self == .readFeed || self == .mixed }
}

/// One kind of request the load tester sends.
public enum Operation: String, Sendable, CaseIterable, Codable {
    case createActivity = "create-activity"
    case readFeed = "read-feed"
    case uploadFile = "upload-file"
    case activityWithUploads = "activity-with-uploads"
    case readTimeline = "read-timeline"

    /// Whether the request sends a file (its bytes count towards MB/s).
    var uploads: Bool { self == .uploadFile || self == .activityWithUploads }
}

/// The report of a scenario that runs on its own rather than as requests (`RealtimeRun`,
/// `WebhookRun`): a table to print, and whether the run failed.
public protocol ScenarioReport: Encodable {
    var table: String { get }
    var failed: Bool { get }
}

extension RealtimeRun.Report: ScenarioReport {}
extension WebhookRun.Report: ScenarioReport {}
