import FeedsCore
import Foundation
import PostgresNIO

/// AddActivityReaction with `create_notification_activity`, one statement: `InsertReaction`'s
/// write, then the notification to the activity's owner (as `NotificationDraft.reaction` makes
/// it, its context from the activity's row) counted into its group as `NotificationInsert`
/// counts it (`countedIntoGroup`). In the reaction bench each statement cost about its round
/// trip whatever it did, and the notification as a statement of its own made a notifying
/// reaction 1.5× a plain one.
///
/// None is written for the user's own activity, a recipient whose id is no feed id, or when the
/// same reaction's notification is there already (the caller moves that one to the group of now).
/// The last column is the notification's feed, null when none was written. An activity deleted
/// meanwhile is caught when the change is read (`NotificationChanges`).
struct InsertNotifyingReaction: PostgresPreparedStatement {
    typealias Row = (stored: InsertReaction<ActivityReactions>.Row, feed: String?)

    static let name = "InsertNotifyingReaction"

    /// $8 the notification's id, $9 its group, $10 whether the reaction's custom data goes with
    /// it, $11 its source, $12 its type, $13 its trigger's text after the actor's name. The
    /// recipient's id is checked as `FeedID` checks one (`NotificationDraft.canNotify`).
    static var sql: String {
        """
        \(InsertReaction<ActivityReactions>.writes), owner AS (
            SELECT a.id, a.type, a.user_id, a.text FROM activities a
            WHERE a.id = $1 AND EXISTS (SELECT 1 FROM stored) AND a.user_id <> $2 AND a.user_id ~ '^[A-Za-z0-9_-]{1,128}$'
        ), known AS (
            SELECT EXISTS (SELECT 1 FROM notifications n, owner o WHERE n.feed = 'notification:' || o.user_id AND n.grp = $9
                AND n.user_id = $2) AS known
        ), added AS (
            INSERT INTO notifications (id, feed, grp, source, type, user_id, activity_id, context, custom, created_at)
            SELECT $8, 'notification:' || o.user_id, $9, $11, $12, $2, o.id,
                jsonb_build_object(
                    'target', jsonb_strip_nulls(jsonb_build_object(
                        'id', o.id, 'type', o.type, 'user_id', o.user_id, 'text', left(o.text, \(NotificationDraft.targetTextLength)))),
                    'trigger', jsonb_build_object(
                        'type', $12, 'text', COALESCE((SELECT NULLIF(name, '') FROM reactor), $2) || ' ' || $13)),
                CASE WHEN $10 THEN $4::jsonb ELSE '{}'::jsonb END, now()
            FROM owner o
            ON CONFLICT (feed, source) DO NOTHING
            RETURNING feed, grp
        ), counted AS (
            \(PostgresNotificationStore.countedIntoGroup)
        )
        SELECT stored.*, reactor.*, (SELECT feed FROM counted) FROM stored LEFT JOIN reactor ON true LIMIT 1
        """
    }

    let insert: InsertReaction<ActivityReactions>
    let notification: ReactionNotification
    let id = UUID().lowercasedString

    func makeBindings() throws -> PostgresBindings {
        var bindings = try insert.makeBindings()
        bindings.append(id)
        bindings.append(notification.group)
        bindings.append(notification.copyCustom)
        bindings.append(
            NotificationDraft.reactionSource(activityID: insert.activityID, userID: insert.userID, type: insert.input.type))
        bindings.append(NotificationDraft.reactionType)
        bindings.append(NotificationDraft.reactionText)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        var columns = RowReader(row)
        let stored = try insert.decode(&columns)
        return (stored, try columns.next())
    }
}
