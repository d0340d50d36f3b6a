import Foundation

/// The proxies in front of the server (load balancers), as addresses or CIDR ranges. A request
/// that comes from one of them names its client in `X-Forwarded-For`; from anyone else that
/// header is the client's own word and is ignored, so nobody picks the address the rate limits
/// and the sign-in slow-down count them under.
public struct TrustedProxies: Sendable {
    private let ranges: [(network: [UInt8], prefix: Int)]

    /// Parses `entries` (`10.0.0.7`, `10.0.0.0/8`, `::1`, `fd00::/8`); nil names the bad one.
    public init(_ entries: [String]) throws {
        ranges = try entries.map { entry in
            let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
            guard let bytes = Self.bytes(of: parts[0]) else { throw Invalid(entry: entry) }
            let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let prefix, (0...bytes.count * 8).contains(prefix) else { throw Invalid(entry: entry) }
            return (bytes, prefix)
        }
    }

    /// An entry that is neither an address nor a CIDR range.
    public struct Invalid: Error, CustomStringConvertible {
        public let entry: String
        public var description: String { "\"\(entry)\" is not an IP address or CIDR range" }
    }

    public var isEmpty: Bool { ranges.isEmpty }

    public func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(of: address) else { return false }
        return ranges.contains { network, prefix in
            guard network.count == bytes.count else { return false }
            let whole = prefix / 8
            guard network[..<whole] == bytes[..<whole] else { return false }
            let rest = prefix % 8
            guard rest > 0 else { return true }
            let mask = UInt8(0xFF) << (8 - rest)
            return network[whole] & mask == bytes[whole] & mask
        }
    }

    /// The client of a request from `peer` that carries `forwardedFor`: walking the list from the
    /// right (the nearest hop first), the first address that is not a trusted proxy. The peer
    /// itself when it is not trusted, or the header is missing or holds nothing usable.
    public func client(peer: String, forwardedFor: String?) -> String {
        guard contains(peer), let forwardedFor else { return peer }
        var client = peer
        for hop in forwardedFor.split(separator: ",").reversed() {
            let address = hop.trimmingCharacters(in: .whitespaces)
            guard Self.bytes(of: address) != nil else { break }
            client = address
            if !contains(address) { break }
        }
        return client
    }

    private static func bytes(of address: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, address, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
