import AsyncHTTPClient
import FeedsCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Posts webhook deliveries as Stream does: the event as the JSON body; `X-Signature` (hex
/// HMAC-SHA256 of the body with the API secret), `X-Webhook-Id`, `X-Webhook-Attempt`, `X-Api-Key`.
///
/// The app chooses the URL, so where it points is checked as a link preview's is: every address
/// of its host must be public unless the operator allowed the host (`allowedHosts`), and the
/// connection goes to the address checked. Each delivery has the hook's timeout, answer
/// included; of the answer, only its first 64 KB are read (a receiver answering gigabytes costs
/// nothing more). A host's address is looked up again after a minute; connections to it are
/// kept alive between deliveries. As a service, it closes them when the server stops.
package final class HTTPWebhookSender: WebhookSender, Service {
    let apiKey: String
    let apiSecret: String
    let allowedHosts: Set<String>
    let logger: Logger
    static let readLimit = 64 << 10
    static let lookupAge = Duration.seconds(60)
    private let clients = NIOLockedValueBox(Clients())

    /// A client per host and the address it was resolved to, so keep-alive survives deliveries.
    struct Clients {
        var byHost: [String: (address: String, client: HTTPClient, resolved: ContinuousClock.Instant)] = [:]
        var closed = false
        var retired: [HTTPClient] = []
    }

    package init(apiKey: String, apiSecret: String, allowedHosts: Set<String>, logger: Logger) {
        self.apiKey = apiKey
        self.apiSecret = apiSecret
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        self.logger = logger
    }

    package func run() async throws {
        try? await gracefulShutdown()
        let all = clients.withLockedValue { clients -> [HTTPClient] in
            clients.closed = true
            defer { (clients.byHost, clients.retired) = ([:], []) }
            return clients.byHost.values.map(\.client) + clients.retired
        }
        for client in all { try? await client.shutdown() }
    }

    package func send(_ delivery: WebhookDelivery, to hook: WebhookHook) async -> WebhookOutcome {
        guard let url = URL(string: hook.url), let host = url.host?.lowercased() else {
            return .refused("the hook's URL is not a URL")
        }
        let client: HTTPClient
        do {
            client = try await self.client(for: host)
        } catch OutboundAddress.Refusal.unresolved {
            return .retry("\(host.prefix(200)) does not resolve")
        } catch OutboundAddress.Refusal.notPublic {
            return .refused(
                "\(host.prefix(200)) is not on the public internet (FEEDS_WEBHOOK_ALLOWED_HOSTS lets a host be anywhere)")
        } catch {
            return .retry("the server is stopping")
        }
        var request = HTTPClientRequest(url: hook.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Feeds webhook")
        request.headers.add(name: "X-Signature", value: WebhookSignature.sign(delivery.body, secret: apiSecret))
        request.headers.add(name: "X-Webhook-Id", value: delivery.webhookID)
        request.headers.add(name: "X-Webhook-Attempt", value: String(delivery.attempt))
        request.headers.add(name: "X-Api-Key", value: apiKey)
        request.body = .bytes(ByteBuffer(bytes: delivery.body))
        let limit = Duration.milliseconds(hook.timeoutMs)
        let prepared = request
        do {
            return try await withDeadline(limit, orThrow: { Timeout() }) {
                let response = try await client.execute(prepared, timeout: .milliseconds(Int64(hook.timeoutMs)))
                var text = ByteBuffer()
                for try await chunk in response.body {
                    text.writeImmutableBuffer(chunk.getSlice(at: chunk.readerIndex, length: min(chunk.readableBytes, Self.readLimit - text.readableBytes))!)
                    if text.readableBytes >= Self.readLimit { break }
                }
                let code = Int(response.status.code)
                if (200..<300).contains(code) { return .delivered }
                let why = "the receiver answered \(code) \(String(decoding: text.readableBytesView.prefix(200), as: UTF8.self))"
                return code >= 500 || code == 408 || code == 429 ? .retry(why) : .refused(why)
            }
        } catch is Timeout {
            return .retry("the receiver did not answer in \(hook.timeoutMs) ms")
        } catch {
            return .retry("cannot reach the receiver: \(error)")
        }
    }

    struct Timeout: Error {}

    /// The client for `host`, looked up again once its address is a minute old.
    private func client(for host: String) async throws -> HTTPClient {
        let now = ContinuousClock.now
        if let held = clients.withLockedValue({ $0.byHost[host] }), now - held.resolved < Self.lookupAge { return held.client }
        let address = try await OutboundAddress.address(of: host, anywhere: allowedHosts.contains(host))
        return try clients.withLockedValue { clients in
            guard !clients.closed else { throw CancellationError() }
            if let held = clients.byHost[host], held.address == address {
                clients.byHost[host]?.resolved = now
                return held.client
            }
            var configuration = HTTPClient.Configuration()
            configuration.dnsOverride = [host: address]
            configuration.redirectConfiguration = .disallow
            configuration.decompression = .disabled
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            if let held = clients.byHost[host] { clients.retired.append(held.client) }
            clients.byHost[host] = (address, client, now)
            return client
        }
    }
}
