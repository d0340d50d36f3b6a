import Foundation

/// An activity pinned to the top of a feed by the feed's owner (or the server).
public struct ActivityPin: Sendable, Equatable {
    public var feed: FeedID
    public var activity: Activity
    /// Who pinned it.
    public var user: User
    public var createdAt: Date
    public var updatedAt: Date

    public init(feed: FeedID, activity: Activity, user: User, createdAt: Date, updatedAt: Date) {
        (self.feed, self.activity, self.user, self.createdAt, self.updatedAt) = (feed, activity, user, createdAt, updatedAt)
    }
}

/// A pin as stored, before its activity is read for the reader.
public struct PinRecord: Sendable, Equatable {
    public var feed: FeedID
    public var activityID: String
    public var user: User
    public var createdAt: Date
    public var updatedAt: Date

    public init(feed: FeedID, activityID: String, user: User, createdAt: Date, updatedAt: Date) {
        (self.feed, self.activityID, self.user, self.createdAt, self.updatedAt) = (feed, activityID, user, createdAt, updatedAt)
    }
}

/// A page of a feed's pins, newest first.
public struct PinPage: Sendable, Equatable {
    public var pins: [ActivityPin]
    public var next: String?

    public init(pins: [ActivityPin], next: String?) { (self.pins, self.next) = (pins, next) }

    static let cursorKind = "pin"

    /// The cursor past `pin`.
    public static func cursor(after pin: PinRecord) -> String {
        KeysetCursor(ascending: false, micros: pin.createdAt.microsecondsSince1970, keys: [pin.activityID])
            .token(kind: cursorKind)
    }

    /// Reads a `next` cursor.
    public static func cursor(_ token: String, field: String = "next") throws(FeedsError) -> KeysetCursor {
        try KeysetCursor(token: token, kind: cursorKind, keyCount: 1, ascending: false, field: field)
    }

    /// Most pins a feed keeps.
    public static let maxPins = 100
}
