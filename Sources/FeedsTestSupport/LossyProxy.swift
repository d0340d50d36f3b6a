import AsyncHTTPClient
import FeedsCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceLifecycle

/// A proxy in front of a `TestServer` that loses writes on purpose, for testing the load tester's
/// loss check: every `every`-th write (AddActivity or UploadFile) is stored, acknowledged to the
/// client as usual, and then undone behind its back. Test-only: nothing of it is in the server.
public struct LossyProxy: Sendable {
    /// What happens to a write picked for a fault.
    public enum Fault: Sendable {
        /// The write is deleted (an activity hard-deleted, an upload removed) after it was acknowledged.
        case drop
        /// The activity's text is changed after it was acknowledged.
        case alter
    }

    /// The proxy's base URL, to point a client at.
    public let baseURL: String
    private let faulted: Shared

    /// The activity ids and upload URLs the proxy undid, in order.
    public var faultedWrites: [String] { faulted.box.withLockedValue { $0 } }

    final class Shared: Sendable {
        let box = NIOLockedValueBox<[String]>([])
        let writes = NIOLockedValueBox(0)
    }

    /// Runs a proxy in front of `server` for the length of `body`.
    public static func run(
        in front: TestServer, every: Int, fault: Fault = .drop, _ body: @Sendable (LossyProxy) async throws -> Void
    ) async throws {
        let shared = Shared()
        let router = Router()
        router.on("**", method: .get) { request, _ in try await forward(request, to: front).response }
        router.on("**", method: .post) { request, _ in
            let reply = try await forward(request, to: front)
            let path = request.uri.path
            guard path == "/api/v2/feeds/activities" || path == "/api/v2/uploads/file", reply.status == 201 else {
                return reply.response
            }
            let count = shared.writes.withLockedValue { count in
                count += 1
                return count
            }
            guard count % every == 0 else { return reply.response }
            let undone = try await undo(reply.body, path: path, fault: fault, server: front)
            shared.box.withLockedValue { $0.append(undone) }
            return reply.response
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: TestDatabase.logger
        )
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: TestDatabase.logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { continuation.finish() }
                try await group.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw ProxyDidNotStart() }
            let proxy = LossyProxy(baseURL: "http://127.0.0.1:\(port)", faulted: shared)
            do {
                try await body(proxy)
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    /// Sends the request on to the server as it came, and its reply back as it came.
    private static func forward(_ request: Request, to server: TestServer) async throws -> Reply {
        var outbound = HTTPClientRequest(url: server.baseURL + request.uri.description)
        outbound.method = HTTPMethod(rawValue: request.method.rawValue)
        // Hummingbird keeps the Host header apart (as the authority), so it is not copied here.
        for field in request.headers where field.name != .contentLength {
            outbound.headers.add(name: field.name.rawName, value: field.value)
        }
        outbound.body = .bytes(try await request.body.collect(upTo: 256 << 20))
        let reply = try await HTTPClient.shared.execute(outbound, timeout: .seconds(60))
        let body = try await reply.body.collect(upTo: 64 << 20)
        var headers = HTTPFields()
        for (name, value) in reply.headers
        where !["content-length", "transfer-encoding", "connection"].contains(name.lowercased()) {
            if let name = HTTPField.Name(name) { headers.append(HTTPField(name: name, value: value)) }
        }
        return Reply(status: Int(reply.status.code), headers: headers, body: body)
    }

    /// The server's reply, kept as bytes so the proxy can read it and still pass it on.
    private struct Reply {
        let status: Int
        let headers: HTTPFields
        let body: ByteBuffer

        var response: Response { Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: body)) }
    }

    /// Undoes an acknowledged write through the server's own API, as the server; returns what it undid.
    private static func undo(_ body: ByteBuffer, path: String, fault: Fault, server: TestServer) async throws -> String {
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(buffer: body))
        if path == "/api/v2/uploads/file" {
            guard let url = json["file"].string, let escaped = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)
            else { throw UnexpectedReply(text: String(buffer: body)) }
            let reply = try await server.api(.DELETE, "/uploads/file", as: nil, query: "&url=\(escaped)")
            guard reply.status == 200 else { throw UnexpectedReply(text: reply.text) }
            return url
        }
        guard let id = json["activity"]["id"].string else { throw UnexpectedReply(text: String(buffer: body)) }
        let reply =
            switch fault {
            case .drop: try await server.api(.DELETE, "/feeds/activities/\(id)", as: nil, query: "&hard_delete=true")
            case .alter: try await server.api(.PATCH, "/feeds/activities/\(id)", as: nil, json: #"{"set":{"text":"altered"}}"#)
            }
        guard reply.status == 200 else { throw UnexpectedReply(text: reply.text) }
        return id
    }

    struct ProxyDidNotStart: Error {}
    struct UnexpectedReply: Error { let text: String }
}
