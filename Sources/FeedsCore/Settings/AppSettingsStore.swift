import Logging

/// Where the settings live; changes are announced to every node.
public protocol AppSettingsStore: Sendable {
    /// The current settings.
    func settings(logger: Logger) async throws -> AppSettings

    /// Applies `change` atomically, bumps the version, records who (`actor`) changed what in the
    /// audit list, and announces it; returns the result. With `expectedVersion`, a change made to
    /// settings that moved on meanwhile is refused (409) rather than written over them.
    func update(
        _ change: AppSettingsChange, by actor: String, expectedVersion: Int64?, logger: Logger
    ) async throws -> AppSettings
}

extension AppSettingsStore {
    /// A change applied whatever the version.
    public func update(_ change: AppSettingsChange, by actor: String, logger: Logger) async throws -> AppSettings {
        try await update(change, by: actor, expectedVersion: nil, logger: logger)
    }
}
