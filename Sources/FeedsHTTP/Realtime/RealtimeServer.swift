import FeedsCore
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceLifecycle

/// The WebSocket server on its own port (`FeedsConfiguration.effectiveWebSocketPort`): only
/// `GET /api/v2/connect`, upgraded. Sockets a client stops answering are closed by the ping
/// (`webSocketPingInterval`), and the server goes on sending `health.check`s.
func makeRealtimeServer<Store: ActivityStore>(
    _ configuration: FeedsConfiguration, endpoint: RealtimeEndpoint<Store>, logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void
) -> some Service {
    let router = Router(context: BasicWebSocketRequestContext.self)
    router.ws("/api/v2/connect") { inbound, outbound, context in
        var query: [String: String] = [:]
        for (name, value) in context.request.uri.queryParameters { query[String(name)] = String(value) }
        await endpoint.serve(inbound, outbound, query: query, logger: context.logger)
    }
    return Application(
        router: router,
        server: .http1WebSocketUpgrade(
            webSocketRouter: router,
            configuration: .init(
                ws: .init(
                    maxFrameSize: RealtimeEndpoint<Store>.maxMessage,
                    autoPing: .enabled(timePeriod: configuration.webSocketPingInterval)))),
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.effectiveWebSocketPort), serverName: "feeds"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
        logger: logger
    )
}

/// Runs the WebSocket server so that a shutting-down node's sockets are closed with 1012, which
/// Stream's SDKs answer by reconnecting (to another node) and re-syncing; the close the server
/// would send by itself (1000, normal) makes the JS SDK stop for good. So the server runs out of
/// reach of the graceful shutdown, which closes the sockets first, waits a moment for them, then
/// stops it.
struct RealtimeShutdown: Service {
    let server: any Service
    let hub: RealtimeHub
    /// How long the sockets have to take their close before the server stops anyway.
    var drain: Duration = .seconds(3)

    func run() async throws {
        // Detached: the graceful shutdown (a task-local) does not reach it; cancelling it stops it.
        let running = Task.detached { [server] in try await server.run() }
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                _ = await running.result
            } onGracefulShutdown: { [hub, drain] in
                hub.resyncAll(reason: "the server is restarting; reconnect")
                Task {
                    let clock = ContinuousClock()
                    let deadline = clock.now + drain
                    while hub.count > 0, clock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
                    running.cancel()
                }
            }
        } onCancel: {
            running.cancel()
        }
    }
}

/// Sends every socket of this node a `health.check` each `interval`.
struct HealthCheckService: Service {
    let hub: RealtimeHub
    let interval: Duration

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                hub.healthCheckAll(now: Date())
            }
        }
    }
}
