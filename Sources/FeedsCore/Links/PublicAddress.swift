import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Whether an address a server-side fetch may connect to is on the public internet: not
/// loopback, private, link-local (cloud metadata lives at 169.254.169.254), shared (CGNAT),
/// multicast, reserved or unspecified, in IPv4 or IPv6 (IPv4-mapped and NAT64 forms included).
public enum PublicAddress {
    /// `text` is an IPv4 or IPv6 address in its usual notation; anything else is not public.
    public static func isPublic(_ text: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return isPublic(v4: UInt32(bigEndian: v4.s_addr))
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), 64:ff9b::a.b.c.d (NAT64): the IPv4 inside decides.
        let embedded = UInt32(bytes[12]) << 24 | UInt32(bytes[13]) << 16 | UInt32(bytes[14]) << 8 | UInt32(bytes[15])
        if bytes[0..<10].allSatisfy({ $0 == 0 }), (bytes[10] == 0xFF && bytes[11] == 0xFF) || (bytes[10] == 0 && bytes[11] == 0) {
            return isPublic(v4: embedded)
        }
        if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return isPublic(v4: embedded) }
        // Only global unicast (2000::/3) is public, less documentation (2001:db8::/32), 6to4's
        // relays and Teredo (2001::/32, whose addresses carry another's).
        guard bytes[0] & 0xE0 == 0x20 else { return false }
        if bytes[0] == 0x20, bytes[1] == 0x01, bytes[2] == 0x0D, bytes[3] == 0xB8 { return false }
        if bytes[0] == 0x20, bytes[1] == 0x01, bytes[2] == 0x00, bytes[3] == 0x00 { return false }
        if bytes[0] == 0x20, bytes[1] == 0x02 {
            return isPublic(v4: UInt32(bytes[2]) << 24 | UInt32(bytes[3]) << 16 | UInt32(bytes[4]) << 8 | UInt32(bytes[5]))
        }
        return true
    }

    static func isPublic(v4 address: UInt32) -> Bool {
        let blocked: [(UInt32, Int)] = [
            (0x0000_0000, 8),  // this network
            (0x0A00_0000, 8),  // private
            (0x6440_0000, 10),  // shared address space (CGNAT)
            (0x7F00_0000, 8),  // loopback
            (0xA9FE_0000, 16),  // link-local, cloud metadata
            (0xAC10_0000, 12),  // private
            (0xC000_0000, 24),  // IETF protocol assignments
            (0xC000_0200, 24),  // documentation
            (0xC058_6300, 24),  // 6to4 relay anycast
            (0xC0A8_0000, 16),  // private
            (0xC612_0000, 15),  // benchmarking
            (0xC633_6400, 24),  // documentation
            (0xCB00_7100, 24),  // documentation
            (0xE000_0000, 4),  // multicast
            (0xF000_0000, 4),  // reserved, broadcast
        ]
        return !blocked.contains { network, bits in address >> (32 - bits) == network >> (32 - bits) }
    }
}
