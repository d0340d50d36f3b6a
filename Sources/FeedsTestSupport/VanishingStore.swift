import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store that goes away mid-request: a loopback TCP relay to the real test store that, once
/// `limit` bytes have come from clients, closes every connection and stops listening, so the
/// request in flight is cut off and every retry is refused.
public final class VanishingStore: @unchecked Sendable {
    // The counters, the descriptor list and each Pair are shared by the relay threads, under `lock`.
    public let port: Int
    private let target: (host: String, port: Int)
    private let limit: Int
    private let listener: Int32
    private let lock = NSLock()
    private var received = 0
    private var sockets: [Int32] = []
    private var vanished = false

    /// Starts relaying to `target` (`http://host:port`) on a free loopback port.
    public init(relayingTo target: URL, vanishAfter limit: Int) throws {
        self.target = (target.host ?? "127.0.0.1", target.port ?? 80)
        self.limit = limit
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard listener >= 0, bound == 0, listen(listener, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// The store's URL through the relay.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Closes everything now.
    public func vanish() {
        lock.lock()
        defer { lock.unlock() }
        guard !vanished else { return }
        vanished = true
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    deinit { vanish() }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: target.port)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            lock.lock()
            let gone = vanished
            if !gone { sockets += [client, upstream] }
            lock.unlock()
            guard !gone, connected == 0 else {
                close(client)
                close(upstream)
                continue
            }
            let pair = Pair()
            Thread.detachNewThread { [self] in
                pump(from: client, to: upstream, counted: true)
                finish(pair, client, upstream)
            }
            Thread.detachNewThread { [self] in
                pump(from: upstream, to: client, counted: false)
                finish(pair, client, upstream)
            }
        }
    }

    private func pump(from source: Int32, to destination: Int32, counted: Bool) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            if counted {
                lock.lock()
                received += count
                let over = received > limit
                lock.unlock()
                if over {
                    vanish()
                    break
                }
            }
            let written = buffer.withUnsafeBytes { send(destination, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
            guard written == count else { break }
        }
        shutdown(destination, Int32(SHUT_RDWR))
        shutdown(source, Int32(SHUT_RDWR))
    }

    /// Counts the two directions of one connection, so its descriptors close once, after both.
    private final class Pair: @unchecked Sendable {
        var done = 0
    }

    private func finish(_ pair: Pair, _ client: Int32, _ upstream: Int32) {
        lock.lock()
        pair.done += 1
        let last = pair.done == 2
        if last { sockets.removeAll { $0 == client || $0 == upstream } }
        lock.unlock()
        if last {
            close(client)
            close(upstream)
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
