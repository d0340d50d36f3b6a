import CMagic
import FeedsCore
import Synchronization

/// One libmagic handle with its database loaded.
///
/// A `magic_t` is not thread-safe; the pool hands each one to a single caller at a time, which is
/// what makes sending it between threads sound.
struct MagicCookie: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// Reuses libmagic handles across calls, since loading the database costs far more than a lookup.
final class MagicPool: Sendable {
    /// The process-wide pool.
    static let shared = MagicPool(maxIdle: 16)

    /// How much of a file libmagic reads.
    static let bytesMax = 1 << 20

    private let idle = Mutex<[MagicCookie]>([])
    private let maxIdle: Int

    init(maxIdle: Int) {
        self.maxIdle = maxIdle
    }

    deinit {
        idle.withLock { cookies in
            for cookie in cookies { magic_close(cookie.pointer) }
        }
    }

    /// Runs `body` with a handle no other caller holds, then returns the handle to the pool.
    func withCookie<Result>(_ body: (MagicCookie) throws -> Result) throws -> Result {
        let cookie = try checkOut()
        defer { checkIn(cookie) }
        return try body(cookie)
    }

    private func checkOut() throws -> MagicCookie {
        if let cookie = idle.withLock({ $0.popLast() }) {
            return cookie
        }
        // MAGIC_ERROR turns unreadable files into a NULL answer rather than a text describing the error.
        guard let pointer = magic_open(MAGIC_MIME_TYPE | MAGIC_ERROR) else {
            throw FeedsError(.internal, "The file type database could not be opened.")
        }
        guard magic_load(pointer, nil) == 0 else {
            magic_close(pointer)
            throw FeedsError(.internal, "The file type database could not be loaded.")
        }
        // libmagic 5.44 reads the first 7 MB of every file into a buffer it allocates afresh, on
        // the path to an upload's reply. Every type we tell apart is known by its first bytes; 1 MB
        // was libmagic's own default in older releases.
        var bytesMax = Self.bytesMax
        magic_setparam(pointer, MAGIC_PARAM_BYTES_MAX, &bytesMax)
        return MagicCookie(pointer: pointer)
    }

    private func checkIn(_ cookie: MagicCookie) {
        let kept = idle.withLock { cookies in
            guard cookies.count < maxIdle else { return false }
            cookies.append(cookie)
            return true
        }
        if !kept { magic_close(cookie.pointer) }
    }
}
