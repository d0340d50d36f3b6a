/// A real-time event for the watchers of feeds, as every node delivers it.
public struct FeedEvent: Sendable, Equatable {
    /// The feeds whose watchers get it; each watcher gets it with the `fid` it watches.
    public var fids: [String]
    /// Set for an event of a private activity: only this user (its owner) may see it.
    public var onlyFor: String?
    /// Also for the watchers of the feeds that follow one of `fids` (accepted), each with the fid
    /// it watches: set on the events of public activities, which timelines hold.
    public var toFollowers: Bool
    /// The event as Stream sends it, a JSON object without its `fid`.
    public var payload: [UInt8]
    /// The users whose write or content it carries (an activity's author, the reactor or
    /// commenter): those who blocked them, or whom they blocked, do not get it.
    public var actors: [String]
    /// Users whose watches of `fids` end once they got it: a member removed from a feed they may
    /// no longer read still learns so on their own sockets, and nothing after.
    public var thenRevoke: [String]
    /// Filled as the event is read for delivery: the users blocked either way with an actor.
    public var hiddenFrom: Set<String>
    /// Filled as the event is read for delivery: each watched feed's visibility, read then, so
    /// that a watcher's `feed_visibility` is the feed's now, whichever node changed it.
    public var visibilities: [String: String]

    public init(
        fids: [String], onlyFor: String?, toFollowers: Bool = false, payload: [UInt8], actors: [String] = [],
        thenRevoke: [String] = [], hiddenFrom: Set<String> = [], visibilities: [String: String] = [:]
    ) {
        self.fids = fids
        self.onlyFor = onlyFor
        self.toFollowers = toFollowers
        self.payload = payload
        self.actors = actors
        self.thenRevoke = thenRevoke
        self.hiddenFrom = hiddenFrom
        self.visibilities = visibilities
    }

    /// The event's `type` (`feeds.activity.added`): every payload starts with it
    /// (`Events.head`); one that does not is parsed for it.
    public var type: String {
        let prefix = Array(#"{"type":""#.utf8)
        if payload.starts(with: prefix), let end = payload[prefix.count...].firstIndex(of: UInt8(ascii: "\"")),
            !payload[prefix.count..<end].contains(UInt8(ascii: "\\"))
        {
            return String(decoding: payload[prefix.count..<end], as: UTF8.self)
        }
        if case .object(let object)? = try? JSONValue(parsing: String(decoding: payload, as: UTF8.self)),
            case .string(let type)? = object["type"]
        {
            return type
        }
        return ""
    }

    /// The event as a watcher of `fid` gets it, with the feed's `feed_visibility` when known.
    public func message(for fid: String) -> [UInt8] {
        var message = Array(#"{"fid":"#.utf8)
        message += Array(JSONValue.string(fid).text.utf8)
        if let visibility = visibilities[fid] {
            message += Array(#","feed_visibility":"#.utf8)
            message += Array(JSONValue.string(visibility).text.utf8)
        }
        if payload.count > 2 { message.append(UInt8(ascii: ",")) }
        message += payload.dropFirst()
        return message
    }
}

/// Where writes send their events once they committed. Delivery is at most once: a node that may
/// have missed events tells its clients to re-sync instead.
public protocol EventPublisher: Sendable {
    func publish(_ events: [FeedEvent])
}

/// Several publishers as one: each gets every event (the sockets' bus, the webhooks' outbox).
public struct EventPublishers: EventPublisher {
    let publishers: [any EventPublisher]

    public init(_ publishers: [any EventPublisher]) {
        self.publishers = publishers
    }

    public func publish(_ events: [FeedEvent]) {
        for publisher in publishers { publisher.publish(events) }
    }
}
