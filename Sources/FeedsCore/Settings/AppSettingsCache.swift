import Synchronization

/// This node's copy of the settings. Reading it is a lock and a copy, never a query, so the
/// upload path can read it on every request; it only ever moves to a newer version.
public final class AppSettingsCache: Sendable {
    private let state: Mutex<AppSettings>

    public init(_ settings: AppSettings = .defaults) {
        state = Mutex(settings)
    }

    /// The settings in force now.
    public var current: AppSettings { state.withLock { $0 } }

    /// The feed grants in force now (read on every request: no copy of the rest).
    public var feedGrants: FeedGrants { state.withLock { $0.feedGrants } }

    /// Takes `settings` when they are newer than what is held; returns whether they were.
    @discardableResult
    public func offer(_ settings: AppSettings) -> Bool {
        state.withLock { held in
            guard settings.version > held.version else { return false }
            held = settings
            return true
        }
    }
}
