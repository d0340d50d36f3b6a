import FeedsCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where a request the server makes for a client or the app (a link preview, a webhook) may
/// connect: a host's addresses, all of them public (`PublicAddress`) unless the host is one the
/// operator allowed. Callers connect to the address returned, so a second lookup cannot differ.
package enum OutboundAddress {
    package enum Refusal: Error, Equatable {
        /// The host has no address.
        case unresolved
        /// One of its addresses is loopback, private, link-local or otherwise not public.
        case notPublic
    }

    /// How long a lookup may take before the host counts as not resolving.
    static let lookupLimit = Duration.seconds(5)

    /// An address of `host` to connect to. Resolved on a thread of its own (getaddrinfo blocks),
    /// within `lookupLimit`: a resolver that does not answer is left to itself.
    package static func address(of host: String, anywhere: Bool) async throws(Refusal) -> String {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let resolved = try? await withDeadline(lookupLimit, orThrow: { Refusal.unresolved }) {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: resolve(bare)) }
            }
        }
        let addresses = resolved ?? []
        guard let first = addresses.first else { throw .unresolved }
        guard anywhere || addresses.allSatisfy(PublicAddress.isPublic) else { throw .notPublic }
        return first
    }

    private static func resolve(_ host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [String] = []
        var node = list
        while let info = node?.pointee {
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(info.ai_addr, info.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 {
                addresses.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            node = info.ai_next
        }
        return addresses
    }
}
