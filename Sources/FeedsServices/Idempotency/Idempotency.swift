import Crypto
import FeedsCore
import Foundation
import Logging
import NIOCore

/// Runs a creating request at most once per (caller, `Idempotency-Key`) within 24 hours: a retry
/// with the same content gets the first response again; with other content, 422. The work records
/// its reply in the transaction of its write (`Claim.record`), so a reply that was not sent still
/// replays; a claim whose request died is taken over after `lease`.
package struct Idempotency: Sendable {
    let store: any IdempotencyStore

    package init(store: any IdempotencyStore) { self.store = store }

    /// How long a claim holds its key while its request runs: longer than any request's work
    /// (its dependencies' deadlines), short enough that a crashed request's key is soon free again.
    static let lease: Duration = .seconds(120)

    /// A key this request claimed, for its write to record the reply with.
    package struct Claim: Sendable {
        let principal: String
        let key: String

        /// The record a store writes with the write, the reply made by `reply` from what it stored.
        package func record<Stored>(_ reply: @escaping @Sendable (Stored) throws -> [UInt8]) -> IdempotentRecord<Stored> {
            IdempotentRecord(principal: principal, key: key, reply: reply)
        }
    }

    /// `work`'s response, or the one recorded for `key`. `content` is what makes two requests the
    /// same; it is worked out only when there is a key. `work` gets the claim (nil without a key).
    package func run<Response: Codable & Sendable>(
        key: String?, principal: Principal, logger: Logger, content: @autoclosure () throws -> [String],
        _ work: (Claim?) async throws -> Response
    ) async throws -> Response {
        try await run(
            key: key, principal: principal, logger: logger, content: content, recording: Self.recorded,
            replaying: { try Self.decoder.decode(Response.self, from: Data($0)) }, work)
    }

    /// The same for a response already written as JSON (`AddActivityRoute`): recorded as it is,
    /// replayed byte for byte.
    package func run(
        key: String?, principal: Principal, logger: Logger, content: @autoclosure () throws -> [String],
        _ work: (Claim?) async throws -> ByteBuffer
    ) async throws -> ByteBuffer {
        try await run(
            key: key, principal: principal, logger: logger, content: content, recording: { Array($0.readableBytesView) },
            replaying: { ByteBuffer(bytes: $0) }, work)
    }

    private func run<Response>(
        key: String?, principal: Principal, logger: Logger, content: () throws -> [String],
        recording: (Response) throws -> [UInt8], replaying: ([UInt8]) throws -> Response,
        _ work: (Claim?) async throws -> Response
    ) async throws -> Response {
        guard let key, !key.isEmpty else { return try await work(nil) }
        guard key.utf8.count <= 255 else {
            throw FeedsError.input("Idempotency-Key may be at most 255 characters", field: "Idempotency-Key")
        }
        let caller = principal.userID.map { "user:\($0)" } ?? "server"
        let hash = SHA256.hash(data: Data(try content().joined(separator: "\n").utf8)).map { String(format: "%02x", $0) }.joined()
        switch try await store.claim(principal: caller, key: key, requestHash: hash, lease: Self.lease, logger: logger)
        {
        case .replay(_, let body):
            return try replaying(body)
        case .mismatch:
            throw FeedsError(
                .idempotencyMismatch, "this Idempotency-Key was used for a different request", field: "Idempotency-Key")
        case .inFlight:
            throw FeedsError.conflict("a request with this Idempotency-Key is still running", field: "Idempotency-Key")
        case .claimed:
            let response: Response
            do {
                response = try await work(Claim(principal: caller, key: key))
            } catch {
                try? await store.release(principal: caller, key: key, logger: logger)
                throw error
            }
            // The write recorded its reply already; this records it only for work that had no
            // transaction to do so. Failing here loses nothing: the write and its record stand.
            do {
                try await store.complete(
                    principal: caller, key: key, status: 201, body: try recording(response), logger: logger)
            } catch {
                logger.warning("could not record an idempotent reply", metadata: ["error": "\(error)"])
            }
            return response
        }
    }

    /// A decoded response's bytes as recorded (and replayed).
    package static func recorded<Response: Encodable>(_ response: Response) throws -> [UInt8] {
        Array(try encoder.encode(response))
    }

    /// Stable JSON of a request body, for `content`.
    package static func canonical(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(from: date))
        }
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = RFC3339.date(from: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not RFC 3339"))
            }
            return date
        }
        return decoder
    }()
}
