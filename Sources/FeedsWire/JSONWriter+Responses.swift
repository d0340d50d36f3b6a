import FeedsAPI
import FeedsCore
import FeedsUploads

/// The reference's response types, written field for field by `JSONWriter`: the same names, the
/// same fields left out when absent. `JSONWriterTests` holds each to what `JSONEncoder` makes of
/// the generated type.
extension JSONWriter {
    /// `users` holds the JSON of users already written in this response, by id: a feed page is
    /// mostly one user's activities, and their user is the same row each time.
    /// Its own bookmarks carry the activity again, without theirs (`bookmarked`).
    package mutating func activity(
        _ activity: Activity, urls: AttachmentURLs, users: inout [String: [UInt8]], bookmarked: Bool = false
    ) {
        if activity.isBare {
            bareActivity(activity, users: &users)
            return
        }
        let engagement = activity.engagement
        object { json in
            // What Feeds keeps empty or zero, in one write.
            json.constantFields(
                """
                "collections":{},"comments":[],"filter_tags":[],"interest_tags":[],"score":0,"search_data":{}
                """)
            json.key("attachments")
            json.array(activity.attachments) { $0.attachment(urls.wire($1)) }
            json.field("bookmark_count", engagement.bookmarkCount)
            json.field("comment_count", engagement.commentCount)
            json.field("created_at", activity.createdAt)
            if let current = activity.currentFeed {
                json.key("current_feed")
                json.currentFeed(current)
            }
            json.key("custom")
            json.object(activity.custom)
            json.field("deleted_at", activity.deletedAt)
            json.field("edited_at", activity.editedAt)
            json.field("expires_at", activity.expiresAt)
            json.key("feeds")
            json.strings(activity.feeds)
            json.field("hidden", activity.hidden)
            json.field("id", activity.id)
            if let watched = activity.isWatched { json.field("is_watched", watched) }
            json.key("latest_reactions")
            json.array(engagement.latestReactions) { $0.reaction($1, users: &users) }
            json.key("mentioned_users")
            json.array(activity.mentionedUsers) { $0.user($1, written: &users) }
            if let context = activity.notificationContext {
                json.key("notification_context")
                json.raw(context.text)
            }
            json.key("own_bookmarks")
            json.array(bookmarked ? [] : engagement.ownBookmarks) { json, bookmark in
                json.bookmark(bookmark, users: &users) { $0.activity(activity, urls: urls, users: &$1, bookmarked: true) }
            }
            json.key("own_reactions")
            json.array(engagement.ownReactions) { $0.reaction($1, users: &users) }
            if let parent = activity.parent {
                json.key("parent")
                json.activity(parent, urls: urls, users: &users)
            }
            if let poll = activity.poll {
                json.key("poll")
                json.poll(poll, users: &users)
            }
            json.field("popularity", engagement.popularity)
            json.field("preview", activity.preview)
            json.field("reaction_count", engagement.reactionCount)
            json.key("reaction_groups")
            json.object { json in
                for (type, group) in engagement.reactionGroups {
                    json.key(type)
                    json.object { json in
                        json.field("count", group.count)
                        json.field("first_reaction_at", group.firstReactionAt)
                        json.field("last_reaction_at", group.lastReactionAt)
                    }
                }
            }
            json.field("restrict_replies", Self.restrictReplies(activity))
            json.field("share_count", engagement.shareCount)
            json.field("text", activity.text)
            json.field("type", activity.type)
            json.field("updated_at", activity.updatedAt)
            json.key("user")
            json.user(activity.user, written: &users)
            json.field("visibility", Self.visibility(activity))
            json.field("visibility_tag", activity.visibilityTag)
        }
    }

    /// `activity(_:)` of an activity with nothing but its own fields (`isBare`): what the other
    /// writes as empty, in runs. A notification page writes 250 of them; the runs cut a third of their time.
    private mutating func bareActivity(_ activity: Activity, users: inout [String: [UInt8]]) {
        openObject()  // not object(_:): its closure copied the activity
        constantFields(
            """
            "collections":{},"comments":[],"filter_tags":[],"interest_tags":[],"score":0,"search_data":{},\
            "attachments":[],"bookmark_count":0,"comment_count":0
            """)
        field("created_at", activity.createdAt)
        key("custom")
        object(activity.custom)
        field("deleted_at", activity.deletedAt)
        field("edited_at", activity.editedAt)
        field("expires_at", activity.expiresAt)
        key("feeds")
        strings(activity.feeds)
        constantFields(#""hidden":false"#)
        field("id", activity.id)
        if let watched = activity.isWatched { field("is_watched", watched) }
        constantFields(#""latest_reactions":[],"mentioned_users":[]"#)
        if let context = activity.notificationContext {
            key("notification_context")
            raw(context.text)
        }
        constantFields(
            """
            "own_bookmarks":[],"own_reactions":[],"popularity":0,"preview":false,"reaction_count":0,"reaction_groups":{}
            """)
        field("restrict_replies", Self.restrictReplies(activity))
        constantFields(#""share_count":0"#)
        field("text", activity.text)
        field("type", activity.type)
        field("updated_at", activity.updatedAt)
        key("user")
        user(activity.user, written: &users)
        field("visibility", Self.visibility(activity))
        field("visibility_tag", activity.visibilityTag)
        closeObject()
    }

    private static func restrictReplies(_ activity: Activity) -> String {
        (Components.Schemas.ActivityResponse.RestrictRepliesPayload(rawValue: activity.restrictReplies) ?? .everyone).rawValue
    }

    private static func visibility(_ activity: Activity) -> String {
        (Components.Schemas.ActivityResponse.VisibilityPayload(rawValue: activity.visibility.rawValue) ?? ._public).rawValue
    }

    package mutating func reaction(_ reaction: Reaction, users: inout [String: [UInt8]]) {
        object { json in
            json.field("activity_id", reaction.activityID)
            json.field("created_at", reaction.createdAt)
            json.key("custom")
            json.object(reaction.custom)
            json.field("type", reaction.type)
            json.field("updated_at", reaction.updatedAt)
            json.key("user")
            json.user(reaction.user, written: &users)
        }
    }

    /// A bookmark, its activity written by `activity`.
    /// A bookmark; `comment` is a comment's bookmark's comment, as JSON.
    package mutating func bookmark(
        _ bookmark: Bookmark, comment: [UInt8]? = nil, users: inout [String: [UInt8]],
        activity: (inout JSONWriter, inout [String: [UInt8]]) -> Void
    ) {
        object { json in
            json.key("activity")
            activity(&json, &users)
            json.field("activity_id", bookmark.activityID)
            if let comment {
                json.key("comment")
                json.raw(comment)
            }
            json.field("created_at", bookmark.createdAt)
            json.key("custom")
            json.object(bookmark.custom)
            if let folder = bookmark.folder {
                json.key("folder")
                json.object { json in
                    json.field("created_at", folder.createdAt)
                    json.key("custom")
                    json.object(folder.custom)
                    json.field("id", folder.id)
                    json.field("name", folder.name)
                    json.field("updated_at", folder.updatedAt)
                    json.key("user")
                    json.user(folder.user, written: &users)
                }
            }
            json.field("object_id", bookmark.commentID ?? bookmark.activityID)
            json.field("object_type", bookmark.commentID == nil ? "activity" : "comment")
            json.field("updated_at", bookmark.updatedAt)
            json.key("user")
            json.user(bookmark.user, written: &users)
        }
    }

    /// A stored attachment with its URLs resolved, keeping only the fields the reference's
    /// `Attachment` has, as decoding into the generated type would.
    package mutating func attachment(_ payload: JSONObject) {
        object { json in
            for (name, value) in payload where Components.Schemas.Attachment.CodingKeys(rawValue: name) != nil {
                json.key(name)
                json.value(value)
            }
        }
    }

    /// An activity's `current_feed`, copied when this writer wrote it before.
    mutating func currentFeed(_ current: CurrentFeed) {
        let key = "\(current.feed.id) \(current.viewer.userID ?? "")"
        if let bytes = writtenFeeds[key] {
            raw(bytes)
            return
        }
        let start = buffer.writerIndex
        feed(current.feed, viewer: current.viewer)
        writtenFeeds[key] = buffer.getBytes(at: start, length: buffer.writerIndex - start)
    }

    /// A follow's feed: one without the reader's own fields (most are) is written once per
    /// reply and copied after (a timeline page's `own_follows` all start at the reader's timeline).
    mutating func followedFeed(_ feed: Feed, viewer: Principal) {
        guard feed.own == nil else { return self.feed(feed, viewer: viewer) }
        let key = "followed \(feed.id) \(viewer.userID ?? "")"
        if let bytes = writtenFeeds[key] { return raw(bytes) }
        let start = buffer.writerIndex
        self.feed(feed, viewer: viewer)
        writtenFeeds[key] = buffer.getBytes(at: start, length: buffer.writerIndex - start)
    }

    /// The user, copied from `written` when it was written before.
    package mutating func user(_ user: User, written: inout [String: [UInt8]]) {
        if let bytes = written[user.id] {
            raw(bytes)
            return
        }
        let start = buffer.writerIndex
        self.user(user)
        written[user.id] = buffer.getBytes(at: start, length: buffer.writerIndex - start)
    }

    package mutating func user(_ user: User) {
        object { json in
            json.field("banned", false)
            json.emptyArray("blocked_user_ids")
            json.field("created_at", user.createdAt)
            json.key("custom")
            json.object(user.custom)
            json.field("id", user.id)
            json.field("image", user.image)
            json.field("invisible", false)
            json.field("language", user.language)
            json.field("name", user.name)
            json.field("online", false)
            json.field("role", user.role)
            json.field("shadow_banned", false)
            json.key("teams")
            json.strings(user.teams)
            json.field("updated_at", user.updatedAt)
        }
    }

    /// A feed with what `viewer` may do with it (`own_capabilities`).
    package mutating func feed(_ feed: Feed, viewer: Principal) {
        object { json in
            json.field("activity_count", Int(Int32(clamping: feed.activityCount)))
            json.field("created_at", feed.createdAt)
            json.key("created_by")
            json.user(feed.createdBy)
            json.key("custom")
            json.object(feed.custom)
            json.field("description", feed.description)
            json.field("feed", feed.id.description)
            json.field("follower_count", Int(Int32(clamping: feed.followerCount)))
            json.field("following_count", Int(Int32(clamping: feed.followingCount)))
            json.field("group_id", feed.id.group)
            json.field("id", feed.id.id)
            json.field("member_count", Int(Int32(clamping: feed.memberCount)))
            json.field("name", feed.name)
            json.key("own_capabilities")
            json.strings(FeedCapabilities.of(viewer, on: feed, grants: .inForce))
            if let own = feed.own {
                if let followings = own.followings {
                    json.key("own_followings")
                    json.array(followings) { $0.follow($1, viewer: viewer) }
                }
                json.key("own_follows")
                json.array(own.follows) { $0.follow($1, viewer: viewer) }
                if let membership = own.membership, let encoded = try? Wire.encodedValue(Wire.feedMember(membership)) {
                    json.key("own_membership")
                    json.raw(encoded)
                }
            }
            json.field("pin_count", Int(Int32(clamping: feed.pinCount)))
            json.field("updated_at", feed.updatedAt)
            json.field("visibility", feed.visibility.rawValue)
        }
    }

    /// A follow with both its feeds, as `Wire.follow` shapes it.
    package mutating func follow(_ follow: Follow, viewer: Principal) {
        object { json in
            json.field("created_at", follow.createdAt)
            json.key("custom")
            json.object(follow.custom)
            json.field("follower_role", follow.followerRole)
            json.field("push_preference", follow.pushPreference)
            json.field("request_accepted_at", follow.requestAcceptedAt)
            json.field("request_rejected_at", follow.requestRejectedAt)
            json.key("source_feed")
            json.followedFeed(follow.source, viewer: viewer)
            json.field("status", follow.status.rawValue)
            json.key("target_feed")
            json.followedFeed(follow.target, viewer: viewer)
            json.field("updated_at", follow.updatedAt)
        }
    }

    /// A feed's followers or following page, and its cursor.
    package mutating func follows(_ name: StaticString, _ page: FollowPage, pagination: StaticString, viewer: Principal) {
        key(name)
        array(page.follows) { $0.follow($1, viewer: viewer) }
        key(pagination)
        object { json in json.field("next", page.next?.token) }
    }

    /// A page's activities and its cursors, the part every page response shares.
    /// `next` stands in for the page's own cursor where groups, not activities, are paged.
    package mutating func page(_ page: ActivityPage, urls: AttachmentURLs, next: String? = nil) {
        key("activities")
        var users: [String: [UInt8]] = [:]
        array(page.activities) { $0.activity($1, urls: urls, users: &users) }
        field("next", next ?? page.next?.token)
        field("prev", page.prev?.token)
    }
}

extension Activity {
    /// Nothing but its own fields, as a notification's activity is: no attachments, engagement,
    /// mentions, poll, share or current feed, not hidden, not a preview (`bareActivity`).
    fileprivate var isBare: Bool {
        attachments.isEmpty && mentionedUsers.isEmpty && poll == nil && parent == nil && currentFeed == nil && !hidden
            && !preview && engagement == ActivityEngagement()
    }
}
