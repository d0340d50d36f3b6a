import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import NIOWebSocket

/// A client of `/api/v2/connect`, as Stream's client SDKs use it: it sends the auth message
/// first, then whatever it is given; every text message it receives comes out of `messages`,
/// and `closed` tells how the server closed it.
public final class RealtimeSocket: Sendable {
    /// The text messages, as their UTF-8 bytes.
    public let messages: AsyncStream<ByteBuffer>
    private let outgoing: AsyncStream<String>.Continuation
    private let task: Task<WebSocketCloseFrame?, any Error>

    /// Opens `url` (`ws://host:port/api/v2/connect`) for `userID` with `token`; `details` are
    /// more fields of `user_details` (`,"name":"Alice"`). With `onMessage`, messages go to it, on
    /// the socket's own task, instead of to `messages` (a load test's readers then need no hop).
    public init(
        url: String, apiKey: String, userID: String, token: String, details: String = "", logger: Logger,
        onMessage: (@Sendable (ByteBuffer) -> Void)? = nil
    ) {
        let (messages, incoming) = AsyncStream.makeStream(of: ByteBuffer.self)
        let (toSend, outgoing) = AsyncStream.makeStream(of: String.self)
        let auth = #"{"token":"\#(token)","user_details":{"id":"\#(userID)"\#(details)},"products":["feeds"]}"#
        outgoing.yield(auth)
        self.messages = messages
        self.outgoing = outgoing
        self.task = Task {
            defer { incoming.finish() }
            return try await WebSocketClient.connect(
                url: "\(url)?api_key=\(apiKey)&stream-auth-type=jwt&X-Stream-Client=feeds-loadtest",
                configuration: .init(maxFrameSize: 1 << 22), logger: logger
            ) { inbound, outbound, _ in
                try await withThrowingTaskGroup { group in
                    group.addTask {
                        for await text in toSend { try await outbound.write(.text(text)) }
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                    // Frames as they come, without making a `String` of each: a run may get
                    // a hundred thousand a second. A message split over frames is joined.
                    var text: ByteBuffer?
                    for try await frame in inbound {
                        switch frame.opcode {
                        case .text: text = frame.data
                        case .continuation: text?.writeImmutableBuffer(frame.data)
                        case .binary: text = nil
                        }
                        if frame.fin, let whole = text {
                            if let onMessage { onMessage(whole) } else { incoming.yield(whole) }
                            text = nil
                        }
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
