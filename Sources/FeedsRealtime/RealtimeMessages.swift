import FeedsCore
import FeedsWire
import Foundation

/// The socket's own messages, as Stream's client SDKs read them: `connection.ok` (with the user
/// as `me`), `health.check` and `connection.error` (Stream's `APIError` under `error`).
package enum RealtimeMessages {
    package static func connectionOK(connectionID: String, user: User, at now: Date) -> [UInt8] {
        var json = JSONWriter(capacity: 512)
        json.object { json in
            json.field("type", "connection.ok")
            json.field("connection_id", connectionID)
            json.field("created_at", now)
            json.key("me")
            json.object { json in
                json.field("id", user.id)
                json.field("name", user.name)
                json.field("image", user.image)
                json.key("custom")
                json.object(user.custom)
                json.field("language", user.language)
                json.field("role", user.role)
                json.key("teams")
                json.strings(user.teams)
                json.field("created_at", user.createdAt)
                json.field("updated_at", user.updatedAt)
                json.field("banned", false)
                json.field("online", true)
                json.field("invisible", false)
                json.emptyArray("devices")
                json.emptyArray("mutes")
                json.emptyArray("channel_mutes")
                json.field("unread_count", 0)
                json.field("total_unread_count", 0)
                json.field("unread_channels", 0)
                json.field("unread_threads", 0)
            }
        }
        return json.bytes
    }

    package static func healthCheck(connectionID: String, at now: Date) -> [UInt8] {
        var json = JSONWriter(capacity: 128)
        json.object { json in
            json.field("type", "health.check")
            json.field("connection_id", connectionID)
            json.field("created_at", now)
            json.emptyObject("custom")
        }
        return json.bytes
    }

    package static func connectionError(_ error: FeedsError, at now: Date) -> [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.object { json in
            json.field("type", "connection.error")
            json.field("connection_id", "")
            json.field("created_at", now)
            json.key("error")
            json.raw(APIErrorBody.json(for: error, duration: "0.00ms"))
        }
        return json.bytes
    }
}
