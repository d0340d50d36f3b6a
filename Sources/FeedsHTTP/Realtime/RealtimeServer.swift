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
