import FeedsCore
import Foundation

/// Rows of `PostgresNotificationStore.groupColumns`, a group's rows together, into groups (with
/// their times in microseconds, for cursors) in the order they came. A row of a group or a user
/// read before stops before their columns. The last group's activities are kept apart until the
/// next group starts, rather than appended through the array of groups (perf saw that copy them).
struct NotificationGroupRows {
    /// Every activity's `feeds`, one array shared.
    private let feeds: [String]
    private var done: [(group: AggregatedGroup, micros: Int64)] = []
    private var last: (group: AggregatedGroup, micros: Int64)?
    private var activities: [Activity] = []
    private var users: [String: User] = [:]

    init(feed: String) {
        feeds = [feed]
    }

    /// The groups read, their activities in.
    func groups() -> [(group: AggregatedGroup, micros: Int64)] {
        var all = self
        all.closeLast()
        return all.done
    }

    mutating func read(_ columns: inout RowReader) throws {
        let name: String = try columns.next()
        let id: String = try columns.next(), type: String = try columns.next()
        let context = JSONObjectText(trusted: try columns.next()), custom = try JSONText.object(try columns.next())
        let created: Date = try columns.next()
        let userID: String = try columns.next()
        let new = last?.group.group != name
        let user: User
        if let known = users[userID] {
            user = known
            if new { columns.skip(UserRow.columnCount - 1) }
        } else {
            user = try UserRow.user(id: userID, &columns)
            users[userID] = user
        }
        if new {
            closeLast()
            let counts: (Int, Int) = (try columns.next(), try columns.next())
            let times: (Date, Date, Int64) = (try columns.next(), try columns.next(), try columns.next())
            let marks: (Bool, Bool) = (try columns.next(), try columns.next())
            last = (
                AggregatedGroup(
                    group: name, activities: [], activityCount: counts.0, userCount: counts.1, createdAt: times.0,
                    updatedAt: times.1, isRead: marks.0, isSeen: marks.1), times.2
            )
        }
        var activity = Activity(
            id: id, type: type, user: user, text: nil, feeds: feeds, visibility: .private, visibilityTag: nil,
            restrictReplies: "everyone", custom: custom, attachments: [], createdAt: created, updatedAt: created,
            editedAt: nil, deletedAt: nil)
        activity.notificationContext = context
        activities.append(activity)
    }

    private mutating func closeLast() {
        guard var group = last else { return }
        last = nil
        group.group.activities = activities
        activities = []
        done.append(group)
    }
}
