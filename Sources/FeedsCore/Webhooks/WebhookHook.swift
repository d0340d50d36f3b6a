import Foundation

/// One place the app's backend hears of events at: Stream's `webhook_url` (with `webhook_events`)
/// or an entry of `event_hooks` of type `webhook`. Every event that goes to sockets goes to each
/// enabled hook whose `eventTypes` name it (all of them when empty).
public struct WebhookHook: Sendable, Equatable, Codable {
    public var id: String
    public var url: String
    /// The event types sent (`feeds.activity.added`); empty: every one.
    public var eventTypes: [String]
    public var enabled: Bool
    /// How long one delivery may take, answer included.
    public var timeoutMs: Int
    public var createdAt: Date
    public var updatedAt: Date

    /// The id `webhook_url` delivers under (an `event_hooks` id is a UUID, so never this).
    public static let webhookURLID = "webhook_url"
    public static let defaultTimeoutMs = 5_000
    public static let timeoutRange = 500...30_000
    /// At most this many hooks, event types per hook, and bytes in a URL.
    public static let maxHooks = 10
    public static let maxEventTypes = 100
    public static let maxURLBytes = 2048

    public init(
        id: String, url: String, eventTypes: [String] = [], enabled: Bool = true, timeoutMs: Int = defaultTimeoutMs,
        createdAt: Date = Date(timeIntervalSince1970: 0), updatedAt: Date = Date(timeIntervalSince1970: 0)
    ) {
        self.id = id
        self.url = url
        self.eventTypes = eventTypes
        self.enabled = enabled
        self.timeoutMs = timeoutMs
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Whether an event of `type` goes to this hook.
    public func wants(_ type: String) -> Bool {
        enabled && (eventTypes.isEmpty || eventTypes.contains(type))
    }

    enum CodingKeys: String, CodingKey {
        case id, url, enabled
        case eventTypes = "event_types"
        case timeoutMs = "timeout_ms"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// `text` as a webhook URL: http or https, a host, no user or password, at most 2048 bytes.
    /// Where it points is checked apart (`OutboundAddress`): that needs a resolver.
    public static func validatedURL(_ text: String, field: String) throws -> URL {
        guard text.utf8.count <= maxURLBytes, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { throw FeedsError.input("\(field) must be an http or https URL of at most 2048 characters", field: field) }
        guard url.user == nil, url.password == nil else {
            throw FeedsError.input("\(field) must not hold a user or password", field: field)
        }
        return url
    }

    /// Event type names as sent: trimmed, deduplicated, each a dotted lowercase name.
    public static func validatedEventTypes(_ types: [String], field: String) throws -> [String] {
        guard types.count <= maxEventTypes else {
            throw FeedsError.input("\(field) may name at most \(maxEventTypes) event types", field: field)
        }
        var seen: [String] = []
        for type in types {
            let type = type.trimmingCharacters(in: .whitespaces)
            let allowed = type.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x5F }
            guard !type.isEmpty, type.utf8.count <= 64, allowed, type.contains(".") else {
                throw FeedsError.input(
                    "\(field) holds \(String(type.prefix(64)).debugDescription), not an event type such as feeds.activity.added",
                    field: field)
            }
            if !seen.contains(type) { seen.append(type) }
        }
        return seen
    }
}

/// The app's webhook settings: `webhook_url` with `webhook_events`, and `event_hooks`.
public struct WebhookSettings: Sendable, Equatable {
    /// "" when unset.
    public var url: String = ""
    public var events: [String] = []
    public var hooks: [WebhookHook] = []

    public init(url: String = "", events: [String] = [], hooks: [WebhookHook] = []) {
        self.url = url
        self.events = events
        self.hooks = hooks
    }

    /// Every hook events go to: `webhook_url`'s first, then the enabled `event_hooks`.
    public var targets: [WebhookHook] {
        (url.isEmpty ? [] : [WebhookHook(id: WebhookHook.webhookURLID, url: url, eventTypes: events)])
            + hooks.filter(\.enabled)
    }

    /// The hook with `id`, enabled, or nil (it was removed or turned off since).
    public func target(_ id: String) -> WebhookHook? {
        targets.first { $0.id == id }
    }
}

extension WebhookHook {
    /// An `event_hooks` entry as UpdateApp sends it: a hook without an id is new.
    public struct Change: Sendable, Equatable, Encodable {
        public var id: String?
        public var hookType: String?
        public var url: String?
        public var eventTypes: [String]?
        public var enabled: Bool?
        public var timeoutMs: Int?

        public init(
            id: String? = nil, hookType: String? = nil, url: String? = nil, eventTypes: [String]? = nil, enabled: Bool? = nil,
            timeoutMs: Int? = nil
        ) {
            (self.id, self.hookType, self.url, self.eventTypes, self.enabled, self.timeoutMs) =
                (id, hookType, url, eventTypes, enabled, timeoutMs)
        }

        enum CodingKeys: String, CodingKey {
            case id, enabled
            case hookType = "hook_type"
            case url = "webhook_url"
            case eventTypes = "event_types"
            case timeoutMs = "timeout_ms"
        }

        /// The list that replaces `held`: each entry validated (errors name `event_hooks[i].field`),
        /// a held hook's id keeps its creation time, a new one gets a fresh id.
        public static func applied(_ changes: [Change], to held: [WebhookHook], now: Date) throws -> [WebhookHook] {
            guard changes.count <= WebhookHook.maxHooks else {
                throw FeedsError.input("event_hooks may hold at most \(WebhookHook.maxHooks) hooks", field: "event_hooks")
            }
            var hooks: [WebhookHook] = []
            for (index, change) in changes.enumerated() {
                let field = "event_hooks[\(index)]"
                let type = change.hookType ?? "webhook"
                guard type == "webhook" else {
                    throw FeedsError.input(
                        "\(field).hook_type \(String(type.prefix(40)).debugDescription) is not one this server delivers to "
                            + "(webhook only: no SQS, SNS or pending-message hooks)",
                        field: "\(field).hook_type")
                }
                guard let text = change.url, !text.isEmpty else {
                    throw FeedsError.input("\(field).webhook_url is required", field: "\(field).webhook_url")
                }
                let url = try WebhookHook.validatedURL(text, field: "\(field).webhook_url")
                let timeout = change.timeoutMs ?? WebhookHook.defaultTimeoutMs
                guard WebhookHook.timeoutRange.contains(timeout) else {
                    throw FeedsError.input(
                        "\(field).timeout_ms must be between \(WebhookHook.timeoutRange.lowerBound) and "
                            + "\(WebhookHook.timeoutRange.upperBound)", field: "\(field).timeout_ms")
                }
                let id = change.id ?? UUID().uuidString.lowercased()
                guard !id.isEmpty, id.utf8.count <= 64, id != WebhookHook.webhookURLID,
                    id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
                else {
                    throw FeedsError.input("\(field).id must be 1 to 64 printable characters", field: "\(field).id")
                }
                guard !hooks.contains(where: { $0.id == id }) else {
                    throw FeedsError.input("\(field).id \(id) is given twice", field: "\(field).id")
                }
                hooks.append(
                    WebhookHook(
                        id: id, url: url.absoluteString,
                        eventTypes: try WebhookHook.validatedEventTypes(change.eventTypes ?? [], field: "\(field).event_types"),
                        enabled: change.enabled ?? true, timeoutMs: timeout,
                        createdAt: held.first { $0.id == id }?.createdAt ?? now, updatedAt: now))
            }
            return hooks
        }
    }
}
