import Foundation
import HummingbirdWSClient
import Logging
import NIOWebSocket

/// A client of `/api/v2/connect`, as Stream's client SDKs use it: it sends the auth message
/// first, then whatever it is given; every text message it receives comes out of `messages`,
/// and `closed` tells how the server closed it.
public final class RealtimeSocket: Sendable {
    public let messages: AsyncStream<String>
    private let outgoing: AsyncStream<String>.Continuation
    private let task: Task<WebSocketCloseFrame?, any Error>

    /// Opens `url` (`ws://host:port/api/v2/connect`) for `userID` with `token`; `details` are
    /// more fields of `user_details` (`,"name":"Alice"`).
    public init(url: String, apiKey: String, userID: String, token: String, details: String = "", logger: Logger) {
        let (messages, incoming) = AsyncStream.makeStream(of: String.self)
        let (toSend, outgoing) = AsyncStream.makeStream(of: String.self)
        let auth = #"{"token":"\#(token)","user_details":{"id":"\#(userID)"\#(details)},"products":["feeds"]}"#
        outgoing.yield(auth)
        self.messages = messages
        self.outgoing = outgoing
        self.task = Task {
            defer { incoming.finish() }
            return try await WebSocketClient.connect(
                url: "\(url)?api_key=\(apiKey)&stream-auth-type=jwt&X-Stream-Client=feeds-loadtest", logger: logger
            ) { inbound, outbound, _ in
                try await withThrowingTaskGroup { group in
                    group.addTask {
                        for await text in toSend { try await outbound.write(.text(text)) }
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                    for try await message in inbound.messages(maxSize: 1 << 22) {
                        if case .text(let text) = message { incoming.yield(text) }
                    }
                    group.cancelAll()
                }
            }
        }
    }

    /// Sends a text message.
    public func send(_ text: String) {
        outgoing.yield(text)
    }

    /// Closes the socket (normally) and waits for it to end.
    public func close() async {
        outgoing.finish()
        _ = try? await task.value
    }

    /// How the server closed the socket: its close code and reason, once it ended.
    public var closed: (code: Int, reason: String?)? {
        get async throws {
            guard let frame = try await task.value else { return nil }
            return (Int(UInt16(webSocketErrorCode: frame.closeCode)), frame.reason)
        }
    }
}
