import FeedsCore
import Logging
import PostgresNIO
import ServiceLifecycle

/// Keeps this node's `AppSettingsCache` current (`ReloadOnNotify`), and on the same notifications
/// the other copies a node keeps (`alsoReload`: the deactivated users): one listening connection
/// for all of them, where a pool may have only two.
public struct AppSettingsListener: Service {
    let client: PostgresClient
    let store: PostgresAppSettingsStore
    let cache: AppSettingsCache
    let refreshInterval: Duration
    let logger: Logger
    let alsoReload: [@Sendable (String) async -> Void]

    public init(
        client: PostgresClient, cache: AppSettingsCache, refreshInterval: Duration = .seconds(30), logger: Logger,
        alsoReload: [@Sendable (String) async -> Void] = []
    ) {
        self.alsoReload = alsoReload
        self.client = client
        self.store = PostgresAppSettingsStore(client: client)
        self.cache = cache
        self.refreshInterval = refreshInterval
        self.logger = logger
    }

    public func run() async throws {
        let others = alsoReload
        await ReloadOnNotify(
            client: client, channel: PostgresAppSettingsStore.channel, refreshInterval: refreshInterval, logger: logger
        ) { reason in
            await reload(reason)
            for other in others { await other(reason) }
        }.run()
    }

    /// Loads the settings now and takes them if newer; failures are logged, the next reload retries.
    public func reload(_ reason: String) async {
        do {
            let settings = try await store.settings(logger: logger)
            if cache.offer(settings) {
                logger.info("app settings reloaded", metadata: ["version": "\(settings.version)", "reason": "\(reason)"])
            }
        } catch {
            logger.warning("cannot reload app settings", metadata: ["reason": "\(reason)", "error": "\(error)"])
        }
    }
}
