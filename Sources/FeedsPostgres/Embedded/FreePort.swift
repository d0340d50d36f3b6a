#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Asks the kernel for a TCP port on 127.0.0.1 that nothing listens on now.
public func freeLoopbackPort() throws -> Int {
    let reserved = try ReservedLoopbackPort()
    reserved.release()
    return reserved.port
}

/// A port on 127.0.0.1 bound and never listened on until released: connecting to it is refused,
/// and no other process (or concurrent test) can take it meanwhile.
public final class ReservedLoopbackPort: @unchecked Sendable {
    public let port: Int
    private var fd: Int32

    public init() throws {
        (fd, port) = try bindLoopbackPort()
    }

    public func release() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    deinit { release() }
}

private func bindLoopbackPort() throws -> (Int32, Int) {
    #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw EmbeddedPostgresError.noFreePort }
    var kept = false
    defer { if !kept { close(fd) } }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0 else { throw EmbeddedPostgresError.noFreePort }
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else { throw EmbeddedPostgresError.noFreePort }
    kept = true
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}
