import FeedsCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call: which call and its `errno`.
struct SystemCallError: Error, Sendable {
    var call: String
    var errno: Int32

    /// Whether trying again later may succeed. A full or failing disk may recover (space freed,
    /// a transient device fault), as may exhausted descriptors or memory; a missing file or a
    /// permission problem will not.
    var isTransient: Bool {
        [ENOSPC, EDQUOT, EIO, EAGAIN, EINTR, EMFILE, ENFILE, ENOMEM, EBUSY].contains(errno)
    }

    /// The CDN error for this failure while handling `key`.
    func cdnError(_ action: String, key: ObjectKey) -> CDNError {
        CDNError(transient: isTransient, "\(action) \(key): \(call): \(String(cString: strerror(errno)))")
    }
}
