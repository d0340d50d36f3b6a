import Crypto
import Foundation

/// One delivery of one event to one hook, as the outbox hands it to a sender.
public struct WebhookDelivery: Sendable, Equatable {
    /// The outbox row.
    public var id: Int64
    /// `X-Webhook-Id`: the same on every attempt, so a receiver can drop repeats.
    public var webhookID: String
    /// The event, as JSON.
    public var body: [UInt8]
    /// `X-Webhook-Attempt`, from 1.
    public var attempt: Int

    public init(id: Int64, webhookID: String, body: [UInt8], attempt: Int) {
        (self.id, self.webhookID, self.body, self.attempt) = (id, webhookID, body, attempt)
    }
}

/// What became of a delivery.
public enum WebhookOutcome: Sendable, Equatable {
    /// The receiver answered 2xx.
    case delivered
    /// Worth trying again later: no answer, 5xx, 408, 429.
    case retry(String)
    /// The receiver (or our rules) refused it: other 4xx answers, an address not allowed. Kept as
    /// failed for the admin console to show and retry, not retried by itself.
    case refused(String)
}

/// Sends deliveries over HTTP (`HTTPWebhookSender`), or in tests anywhere.
public protocol WebhookSender: Sendable {
    func send(_ delivery: WebhookDelivery, to hook: WebhookHook) async -> WebhookOutcome
}

/// Stream's webhook signature: `X-Signature` is the hex HMAC-SHA256 of the body, keyed with the
/// API secret.
public enum WebhookSignature {
    public static func sign(_ body: [UInt8], secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Array(secret.utf8)))
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in mac { hex += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        return String(decoding: hex, as: UTF8.self)
    }
}
