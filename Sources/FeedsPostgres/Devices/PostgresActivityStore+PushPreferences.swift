import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// Push settings: the rows of `push_preferences` (migration 0048).
extension PostgresActivityStore {
    public func pushPreferences(of users: [String], logger: Logger) async throws -> [String: PushPreferences] {
        var found = Dictionary(uniqueKeysWithValues: users.map { ($0, PushPreferences()) })
        let rows = try await client.query(
            """
            SELECT user_id, feeds_level, feeds_preferences::text, disabled_until FROM push_preferences
            WHERE user_id = ANY(\(users))
            """, logger: logger)
        for try await (user, level, types, until) in rows.decode((String, String, String, Date?).self) {
            found[user] = try Self.preferences(level: level, types: types, until: until)
        }
        return found
    }

    public func setPushPreferences(_ preferences: [String: PushPreferences], logger: Logger) async throws {
        try await client.transaction(logger: logger) { connection in
            for (user, preference) in preferences.sorted(by: { $0.key < $1.key }) {
                try await Self.ensureUser(user, on: connection, logger: logger)
                let types = try JSONText.encode(Stored(types: preference.types, custom: preference.customActivityTypes))
                try await connection.query(
                    """
                    INSERT INTO push_preferences (user_id, feeds_level, feeds_preferences, disabled_until)
                    VALUES (\(user), \(preference.level.rawValue), \(types)::jsonb, \(preference.disabledUntil))
                    ON CONFLICT (user_id) DO UPDATE SET feeds_level = EXCLUDED.feeds_level,
                        feeds_preferences = EXCLUDED.feeds_preferences, disabled_until = EXCLUDED.disabled_until,
                        updated_at = now()
                    """, logger: logger)
            }
        }
    }

    /// `feeds_preferences` as stored: the types and the custom activity types.
    private struct Stored: Codable {
        var types: [String: PushPreferences.Level]?
        var custom: [String: PushPreferences.Level]?
    }

    private static func preferences(level: String, types: String, until: Date?) throws -> PushPreferences {
        var preferences = PushPreferences()
        preferences.level = PushPreferences.Level(rawValue: level) ?? .all
        let stored = try JSONDecoder().decode(Stored.self, from: Data(types.utf8))
        (preferences.types, preferences.customActivityTypes) = (stored.types ?? [:], stored.custom ?? [:])
        preferences.disabledUntil = until
        return preferences
    }
}
