import FeedsCore
import Hummingbird
import Logging

/// `/healthz` (the process answers), `/readyz` (the database answers and is migrated, the file
/// store answers), `/metrics` (Prometheus) and `/openapi.yaml` (the API this server speaks).
struct OperationsRoutes {
    /// The migrations the database has not applied yet.
    let pendingMigrations: @Sendable (Logger) async throws -> [String]
    let cdn: any CDNClient
    let probe: any DatabaseHealth
    let readinessTimeout: Duration

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/healthz") { _, _ in Self.json(#"{"status":"ok"}"#) }
        // Load balancers poll this with short timeouts: it answers within `readinessTimeout`
        // (a second by default), ready or not.
        router.get("/readyz") { _, context in
            let logger = context.logger
            return try await withDeadline(readinessTimeout, "the readiness check") { [self] in try await ready(logger: logger) }
        }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(bytes: PrometheusMetrics.exposition()))
            )
        }
        router.get("/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_yaml))
            )
        }
    }

    private func ready(logger: Logger) async throws -> Response {
        if probe.isDown { throw FeedsError.databaseDown }
        let pending: [String]
        do {
            pending = try await pendingMigrations(logger)
        } catch {
            logger.warning("readiness: database unreachable", metadata: ["error": "\(String(reflecting: error))"])
            throw FeedsError(.unavailable, "database unreachable")
        }
        guard pending.isEmpty else {
            throw FeedsError(.unavailable, "migrations not applied: \(pending.joined(separator: ", "))")
        }
        do {
            try await cdn.checkReady()
        } catch let error as CDNError {
            logger.warning("readiness: file store unreachable", metadata: ["error": "\(error.message)"])
            throw FeedsError(.unavailable, "file store unreachable: \(error.message)")
        }
        return Self.json(#"{"status":"ready"}"#)
    }

    private static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
