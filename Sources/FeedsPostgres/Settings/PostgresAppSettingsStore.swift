import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `AppSettingsStore` on PostgreSQL: the `app_settings` row, changed under a row lock and
/// announced with `NOTIFY` in the same transaction, so a node hears of a change only once it is
/// committed.
public struct PostgresAppSettingsStore: AppSettingsStore {
    /// The channel every node listens on; the payload is the new version.
    public static let channel = "feeds_app_settings"

    let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    public func settings(logger: Logger) async throws -> AppSettings {
        try await client.withConnection { try await Self.read(on: $0, forUpdate: false, logger: logger) }
    }

    public func update(
        _ change: AppSettingsChange, by actor: String, expectedVersion: Int64?, logger: Logger
    ) async throws -> AppSettings {
        try change.validate()
        // Each try within a deadline: a pool whose connection was killed under it may hold a
        // request without end (seen once in CI after the listeners were killed). A try that ran
        // out may still have committed; the next then applies the same change again (the same
        // values, one version more) or, with `expectedVersion`, answers that the settings changed.
        var tried = 1
        while true {
            do {
                return try await withDeadline(Self.deadline, "UpdateApp's write") {
                    try await self.write(change, by: actor, expectedVersion: expectedVersion, logger: logger)
                }
            } catch let error as FeedsError where error.kind == .unavailable && tried < 3 {
                logger.warning("the settings write did not answer; trying again", metadata: ["try": "\(tried + 1)"])
                tried += 1
            }
        }
    }

    /// The most one try of `update` may take, a connection's wait included.
    static let deadline = Duration.seconds(10)

    private func write(
        _ change: AppSettingsChange, by actor: String, expectedVersion: Int64?, logger: Logger
    ) async throws -> AppSettings {
        try await client.transaction(logger: logger) { connection in
            let current = try await Self.read(on: connection, forUpdate: true, logger: logger)
            if let expectedVersion, expectedVersion != current.version {
                throw FeedsError.conflict(
                    "the settings changed meanwhile (version \(current.version), not \(expectedVersion)); "
                        + "review them and save again")
            }
            var next = try change.applied(to: current)
            next.version = current.version + 1
            try await connection.query(
                """
                UPDATE app_settings SET version = \(next.version),
                    file_upload_config = \(try JSONText.encode(next.fileUploads))::jsonb,
                    image_upload_config = \(try JSONText.encode(next.imageUploads))::jsonb,
                    cdn_expiration_seconds = \(next.cdnExpirationSeconds),
                    strip_image_metadata = \(next.stripImageMetadata),
                    guest_user_creation_disabled = \(next.guestUserCreationDisabled),
                    webhook_url = \(next.webhooks.url), webhook_events = \(next.webhooks.events),
                    event_hooks = \(try JSONText.encode(next.webhooks.hooks))::jsonb, updated_at = now()
                WHERE app_id = 1
                """,
                logger: logger
            )
            if next.feedGrants != current.feedGrants { try await Self.write(next.feedGrants, on: connection, logger: logger) }
            try await Self.announce(next.version, by: actor, changes: current.differences(to: next), on: connection, logger: logger)
            return next
        }
    }

    /// Records `changes` under `version` in the audit list and tells every node, from inside the
    /// transaction that made them: the notice goes out only if it commits.
    static func announce(
        _ version: Int64, by actor: String, changes: [String], on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.query(
            "INSERT INTO app_settings_audit (version, actor, changes) VALUES (\(version), \(actor), \(changes))",
            logger: logger
        )
        try await connection.query("SELECT pg_notify(\(Self.channel), \(String(version)))", logger: logger)
    }

    /// The settings with their feed groups; `forUpdate` locks the row, which every change to
    /// either takes first, so changes apply one at a time.
    static func read(on connection: PostgresConnection, forUpdate: Bool, logger: Logger) async throws -> AppSettings {
        let lock = forUpdate ? " FOR UPDATE" : ""
        let rows = try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT version, file_upload_config::text, image_upload_config::text, cdn_expiration_seconds,
                        strip_image_metadata, guest_user_creation_disabled, webhook_url, webhook_events, event_hooks::text
                    FROM app_settings WHERE app_id = 1\(lock)
                    """),
            logger: logger
        )
        var found: AppSettings?
        for try await (version, file, image, seconds, strip, noGuests, webhookURL, webhookEvents, hooks) in rows.decode(
            (Int64, String, String, Int, Bool, Bool, String, [String], String).self)
        {
            let decoder = JSONDecoder()
            found = AppSettings(
                fileUploads: try decoder.decode(UploadRules.self, from: Data(file.utf8)),
                imageUploads: try decoder.decode(UploadRules.self, from: Data(image.utf8)),
                cdnExpirationSeconds: seconds, stripImageMetadata: strip, version: version
            )
            found?.guestUserCreationDisabled = noGuests
            found?.webhooks = WebhookSettings(
                url: webhookURL, events: webhookEvents, hooks: try decoder.decode([WebhookHook].self, from: Data(hooks.utf8)))
        }
        if var settings = found {
            settings.feedGroups = FeedGroups(try await PostgresFeedGroupStore.read(on: connection, logger: logger))
            settings.feedGrants = try await readGrants(on: connection, logger: logger)
            return settings
        }
        throw FeedsError(.internal, "the app_settings row is missing; run feeds migrate")
    }

    /// The `feed_grants` rows.
    static func readGrants(on connection: PostgresConnection, logger: Logger) async throws -> FeedGrants {
        let rows = try await connection.query("SELECT role, action, visibilities FROM feed_grants", logger: logger)
        var grants: [(role: String, action: FeedAction, visibilities: [FeedVisibility])] = []
        for try await (role, action, visibilities) in rows.decode((String, String, [String]).self) {
            guard let action = FeedAction(rawValue: action) else { continue }
            grants.append((role, action, visibilities.compactMap(FeedVisibility.init(rawValue:))))
        }
        return FeedGrants(rows: grants)
    }

    /// Replaces the `feed_grants` rows with `grants`' (a few dozen at most).
    static func write(_ grants: FeedGrants, on connection: PostgresConnection, logger: Logger) async throws {
        let rows = grants.rows
        try await connection.query("DELETE FROM feed_grants", logger: logger)
        try await connection.query(
            """
            INSERT INTO feed_grants (role, action, visibilities)
            SELECT r, a, string_to_array(v, ',') FROM unnest(\(rows.map(\.role)), \(rows.map(\.action.rawValue)),
                \(rows.map { $0.visibilities.map(\.rawValue).joined(separator: ",") })) AS x(r, a, v)
            """,
            logger: logger)
    }
}
