import Logging

/// Where the settings live; changes are announced to every node.
public protocol AppSettingsStore: Sendable {
    /// The current settings.
    func settings(logger: Logger) async throws -> AppSettings

    /// Applies `change` atomically, bumps the version and announces it; returns the result.
    func update(_ change: AppSettingsChange, logger: Logger) async throws -> AppSettings
}
