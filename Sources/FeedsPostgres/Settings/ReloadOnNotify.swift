import Logging
import PostgresNIO
import ServiceLifecycle

/// A node's copy of something every node shares, kept current: it `LISTEN`s on `channel` on a
/// connection of its own and reloads on each notification; after a lost connection it
/// reconnects and reloads (a change may have been missed meanwhile); and it reloads every
/// `refreshInterval` in case a notification is lost anyway. `reload` logs its own failures.
struct ReloadOnNotify: Sendable {
    let client: PostgresClient
    let channel: String
    let refreshInterval: Duration
    let logger: Logger
    let reload: @Sendable (_ reason: String) async -> Void

    func run() async {
        // The listen is cancelled at shutdown but not waited for: once its connection had been
        // killed, a shutdown on a loaded CI machine waited for it past 120 s (7bf7dc3).
        let listening = Task { await listen() }
        defer { listening.cancel() }
        await cancelWhenGracefulShutdown { await refreshPeriodically() }
    }

    private func listen() async {
        var backoff = Duration.milliseconds(50)
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        // Listening from here on; anything committed before is in this read.
                        await reload("listening")
                        backoff = .milliseconds(50)
                        for try await _ in notifications { await reload("notified") }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("lost a listener; reconnecting", metadata: ["channel": "\(channel)", "error": "\(error)"])
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
