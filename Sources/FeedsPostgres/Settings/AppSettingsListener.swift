import FeedsCore
import Logging
import PostgresNIO
import ServiceLifecycle

/// Keeps this node's `AppSettingsCache` current: it `LISTEN`s for changes on a connection of its
/// own and reloads on each; after a lost connection it reconnects and reloads (a change may have
/// been missed meanwhile); and it reloads every `refreshInterval` in case a notification is lost
/// anyway.
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
        // The listen is cancelled at shutdown but not waited for: once its connection had been
        // killed, a shutdown on a loaded CI machine waited for it past 120 s (7bf7dc3).
        let listening = Task { await listen() }
        defer { listening.cancel() }
        await cancelWhenGracefulShutdown { await refreshPeriodically() }
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

    private func listen() async {
        var backoff = Duration.milliseconds(50)
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: PostgresAppSettingsStore.channel) { notifications in
                        // Listening from here on; anything committed before is in this read.
                        await reload("listening")
                        backoff = .milliseconds(50)
                        for try await _ in notifications { await reload("notified") }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("lost the app settings listener; reconnecting", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, .seconds(5))
        }
    }

    private func refreshPeriodically() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: refreshInterval) } catch { return }
            await reload("periodic")
        }
    }
}
