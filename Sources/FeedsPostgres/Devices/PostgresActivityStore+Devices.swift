import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `DeviceStore`: the rows of `devices` (migration 0041).
extension PostgresActivityStore {
    public func addDevice(_ device: Device, logger: Logger) async throws {
        try await client.transaction(logger: logger) { connection in
            try await Self.ensureUser(device.userID, on: connection, logger: logger)
            // The same device again changes nothing; another user's token becomes this user's.
            try await connection.query(
                """
                INSERT INTO devices (id, user_id, push_provider, push_provider_name, hardware_id, voip)
                VALUES (\(device.id), \(device.userID), \(device.provider.rawValue), \(device.providerName),
                    \(device.hardwareID), \(device.voip))
                ON CONFLICT (id) DO UPDATE SET user_id = EXCLUDED.user_id, push_provider = EXCLUDED.push_provider,
                    push_provider_name = EXCLUDED.push_provider_name, hardware_id = EXCLUDED.hardware_id,
                    voip = EXCLUDED.voip, disabled = false, disabled_reason = '', created_at = now()
                WHERE devices.user_id <> EXCLUDED.user_id
                """, logger: logger)
            // Past the bound, the oldest go.
            try await connection.query(
                """
                DELETE FROM devices WHERE id IN (
                    SELECT id FROM devices WHERE user_id = \(device.userID)
                    ORDER BY created_at DESC, id DESC OFFSET \(Device.maxPerUser))
                """, logger: logger)
        }
    }

    public func devices(of user: String, logger: Logger) async throws -> [Device] {
        try await Self.devices(
            reads.query(
                """
                SELECT \(unescaped: Self.deviceColumns) FROM devices WHERE user_id = \(user)
                ORDER BY created_at DESC, id DESC LIMIT \(Device.maxPerUser)
                """, logger: logger))
    }

    static let deviceColumns =
        "id, user_id, push_provider, push_provider_name, hardware_id, voip, disabled, disabled_reason, created_at"

    /// The devices of rows of `deviceColumns`.
    static func devices(_ rows: PostgresRowSequence) async throws -> [Device] {
        var devices: [Device] = []
        for try await (id, userID, provider, name, hardware, voip, disabled, reason, created) in rows.decode(
            (String, String, String, String, String, Bool, Bool, String, Date).self)
        {
            devices.append(
                Device(
                    id: id, userID: userID, provider: Device.Provider(rawValue: provider) ?? .firebase, providerName: name,
                    hardwareID: hardware, voip: voip, disabled: disabled, disabledReason: reason, createdAt: created))
        }
        return devices
    }

    public func deleteDevice(_ id: String, of user: String, logger: Logger) async throws {
        let deleted = try await client.committed(logger: logger) { connection in
            try await connection.query(
                "DELETE FROM devices WHERE id = \(id) AND user_id = \(user) RETURNING 1", logger: logger
            ).collect()
        }
        guard !deleted.isEmpty else { throw FeedsError.notFound("\(user) has no device \(id)") }
    }
}
