import NIOCore

/// The hub's handle on one socket: who it is, and its handler, reached on its event loop.
package final class RealtimeConnection: Sendable {
    package let id: String
    package let userID: String
    package let eventLoop: any EventLoop
    private let socket: NIOLoopBound<any RealtimeSocketActions>

    /// Made on the socket's event loop.
    package init(id: String, userID: String, socket: any RealtimeSocketActions, eventLoop: any EventLoop) {
        self.id = id
        self.userID = userID
        self.eventLoop = eventLoop
        self.socket = NIOLoopBound(socket, eventLoop: eventLoop)
    }

    /// On the event loop: writes a message, to go with the next `flush`.
    package func send(_ message: ByteBuffer) {
        socket.value.send(message)
    }

    package func flush() {
        socket.value.flush()
    }

    package func ping() {
        eventLoop.execute { self.socket.value.ping() }
    }

    package func close(code: UInt16, reason: String) {
        eventLoop.execute { self.socket.value.close(code: code, reason: reason) }
    }
}

/// What the hub may ask of a socket, on its event loop.
package protocol RealtimeSocketActions: AnyObject {
    func send(_ message: ByteBuffer)
    func flush()
    func ping()
    func close(code: UInt16, reason: String)
}

extension RealtimeSocketHandler: RealtimeSocketActions {}
