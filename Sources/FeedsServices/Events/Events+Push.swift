import FeedsCore
import FeedsRealtime
import FeedsWire

extension Events {
    package static var pushType: String { "feeds.push_notification" }

    /// `feeds.push_notification`: a notification that would be pushed, for the app's webhooks
    /// only (it names no feed, so no socket gets it). Pushing through APNs or FCM is the app's:
    /// the event carries the devices it is for, and the notification as its feed holds it.
    package func push(_ draft: NotificationDraft, group: String, devices: [Device]) {
        var json = JSONWriter(capacity: 1024)
        json.object { json in
            Self.head(&json, Self.pushType)
            Self.recipient(&json, draft.recipient, devices)
            json.key("notification")
            json.object { json in
                json.field("type", draft.type)
                json.field("feed", draft.feed)
                json.field("group", group)
                json.key("actor")
                json.object { $0.field("id", draft.actorID) }
                json.field("target_id", draft.targetID)
                json.field("activity_id", draft.activityID)
                json.key("notification_context")
                json.object(draft.context)
                json.key("custom")
                json.object(draft.custom)
            }
        }
        realtime.publish(FeedEvent(fids: [], onlyFor: draft.recipient, payload: json.bytes, actors: [draft.actorID]))
    }

    /// `feeds.push_notification` for a follower (`FollowerPush`): a new activity in a feed they
    /// follow with `push_preference` `all`. Its `notification` names the activity's type, the
    /// followed feed and the author, with the activity's id and text for the push to show.
    package func push(_ activity: Activity, to follower: FollowerPush) {
        var json = JSONWriter(capacity: 1024)
        json.object { json in
            Self.head(&json, Self.pushType)
            Self.recipient(&json, follower.recipient, follower.devices)
            json.key("notification")
            json.object { json in
                json.field("type", activity.type)
                json.field("feed", follower.feed)
                json.key("actor")
                json.object { $0.field("id", activity.user.id) }
                json.field("target_id", activity.id)
                json.field("activity_id", activity.id)
                json.key("notification_context")
                json.object { json in
                    json.key("trigger")
                    json.object { json in
                        json.field("type", "activity")
                        json.field("text", activity.text ?? "")
                    }
                }
                json.key("custom")
                json.object([:])
            }
        }
        realtime.publish(FeedEvent(fids: [], onlyFor: follower.recipient, payload: json.bytes, actors: [activity.user.id]))
    }

    /// The push's `user` and `devices`.
    private static func recipient(_ json: inout JSONWriter, _ user: String, _ devices: [Device]) {
        json.key("user")
        json.object { $0.field("id", user) }
        json.key("devices")
        json.array(devices) { json, device in
            json.object { json in
                json.field("id", device.id)
                json.field("push_provider", device.provider.rawValue)
                json.field("push_provider_name", device.providerName)
                json.field("voip", device.voip)
            }
        }
    }
}
