import FeedsAPI
import FeedsCore
import FeedsUploads
import Foundation

extension Wire {
    /// A pin as Stream's `ActivityPinResponse` shows it (GetOrCreateFeed's `pinned_activities`,
    /// QueryPinnedActivities).
    package static func pin(_ pin: ActivityPin, urls: AttachmentURLs) throws -> Components.Schemas.ActivityPinResponse {
        Components.Schemas.ActivityPinResponse(
            activity: try activity(pin.activity, urls: urls), createdAt: WireTime.nanoseconds(pin.createdAt),
            feed: pin.feed.description, updatedAt: WireTime.nanoseconds(pin.updatedAt), user: try user(pin.user))
    }

    /// Pins where a hand-written reply carries them (GetOrCreateFeed's `pinned_activities`).
    package static func encoded(_ pins: [ActivityPin], urls: AttachmentURLs) throws -> [UInt8] {
        try encodedArray(try pins.map { try pin($0, urls: urls) })
    }
}
