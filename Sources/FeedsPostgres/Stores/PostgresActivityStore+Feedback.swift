import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// ActivityFeedback's rows (`activity_feedback`, migration 0042); what hiding does to reads is
/// `ActivityHidden`'s.
extension PostgresActivityStore {
    public func feedback(
        _ change: ActivityFeedbackChange, on activityID: String, userID: String, by principal: Principal, logger: Logger
    ) async throws -> (feedback: ActivityFeedback, activity: Activity) {
        // The reader's to give: an activity they may read (as the user the server names).
        let reader: Principal = principal.userID == nil ? .user(userID) : principal
        try await readable(activityID, principal: reader, logger: logger)
        let stored: (Bool, Int16, Date, Date) = try await client.transaction(logger: logger) { connection in
            try await Self.ensureUser(userID, on: connection, logger: logger)
            let preference = change.preference.map { Int16($0) }
            let rows = try await connection.query(
                """
                INSERT INTO activity_feedback (activity_id, user_id, hidden, preference)
                VALUES (\(activityID), \(userID), COALESCE(\(change.hide), false), COALESCE(\(preference), 0))
                ON CONFLICT (activity_id, user_id) DO UPDATE
                SET hidden = COALESCE(\(change.hide), activity_feedback.hidden),
                    preference = COALESCE(\(preference), activity_feedback.preference), updated_at = now()
                RETURNING hidden, preference, created_at, updated_at
                """, logger: logger)
            for try await row in rows.decode((Bool, Int16, Date, Date).self) { return row }
            throw FeedsError(.internal, "the feedback was not stored")
        }
        guard let user = try await storedUser(userID, logger: logger) else {
            throw FeedsError(.internal, "user \(userID) vanished after their feedback")
        }
        let activity = try await self.activity(activityID, principal: .server, ownFieldsOf: userID, logger: logger)
        return (
            ActivityFeedback(
                activityID: activityID, user: user, hidden: stored.0, preference: Int(stored.1), createdAt: stored.2,
                updatedAt: stored.3), activity
        )
    }
}
