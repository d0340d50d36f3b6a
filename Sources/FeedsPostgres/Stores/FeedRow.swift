import FeedsCore
import Foundation
import PostgresNIO

/// The columns a feed is read from, with its creator, and the feed they make. The activity
/// count is kept by a trigger on `activity_feeds` (posts, not timeline copies).
enum FeedRow {
    static let columns = columns(feed: "f", user: "u")

    /// The columns of the feed aliased `feed`, joined to its creator aliased `user`.
    static func columns(feed f: String, user u: String) -> String {
        """
        \(f).group_id, \(f).feed_id, \(f).name, \(f).description, \(f).custom::text, \(f).created_at, \(f).updated_at,
        \(f).activity_count::int8, \(f).visibility, \(f).follower_count, \(f).following_count, \(f).member_count, \(f).pin_count,
        \(u).id, \(u).name, \(u).image, \(u).role, \(u).language, \(u).teams, \(u).custom::text, \(u).created_at, \(u).updated_at
        """
    }
    static let from = "FROM feeds f JOIN users u ON u.id = f.created_by"

    /// The feed in the next columns of a row, in the order of `columns`.
    static func feed(_ columns: inout RowReader) throws -> Feed {
        let group: String = try columns.next(), id: String = try columns.next()
        let name: String = try columns.next(), description: String = try columns.next()
        let custom = try JSONText.object(try columns.next())
        let createdAt: Date = try columns.next(), updatedAt: Date = try columns.next()
        let activityCount: Int64 = try columns.next()
        let visibility: String = try columns.next()
        let followers: Int32 = try columns.next(), following: Int32 = try columns.next()
        let members: Int32 = try columns.next(), pins: Int32 = try columns.next()
        var feed = Feed(
            id: try FeedID(group: group, id: id, field: "feed"), name: name, description: description, custom: custom,
            createdBy: try UserRow.user(&columns), activityCount: Int(activityCount), createdAt: createdAt,
            updatedAt: updatedAt, visibility: FeedVisibility(rawValue: visibility) ?? .visible, followerCount: Int(followers),
            followingCount: Int(following))
        (feed.memberCount, feed.pinCount) = (Int(members), Int(pins))
        return feed
    }
}
