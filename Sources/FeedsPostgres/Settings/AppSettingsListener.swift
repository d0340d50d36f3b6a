import FeedsCore
import Logging
import PostgresNIO
import ServiceLifecycle

/// Keeps this node's `AppSettingsCache` current (`ReloadOnNotify`).
public struct AppSettingsListener: Service {
    let client: PostgresClient
    let store: PostgresAppSettingsStore
    let cache: AppSettingsCache
    let refreshInterval: Duration
    let logger: Logger

    public init(
        client: PostgresClient, cache: AppSettingsCache, refreshInterval: Duration = .seconds(30), logger: Logger
    ) {
        self.client = client
        self.store = PostgresAppSettingsStore(client: client)
        self.cache = cache
        self.refreshInterval = refreshInterval
        self.logger = logger
    }

    public func run() async throws {
        await ReloadOnNotify(
            client: client, channel: PostgresAppSettingsStore.channel, refreshInterval: refreshInterval, logger: logger,
            reload: reload
        ).run()
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
