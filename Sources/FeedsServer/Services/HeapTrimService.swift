import ServiceLifecycle

#if canImport(CMalloc)
    import CMalloc
#endif

/// Gives freed heap back to the system. glibc keeps what a burst freed (10,000 unauthenticated
/// sockets and 2,000 signed-in ones, all gone, left RSS 43 MB above where it started a minute
/// later): it trims an arena only at its top, so pages freed below a live allocation stay.
/// `malloc_trim` returns every wholly free page; it runs every `interval`, and only when at
/// least `threshold` bytes are free in the heap.
struct HeapTrimService: Service {
    let interval: Duration
    var threshold = 8 << 20

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                Self.trimIfWorthIt(threshold: threshold)
            }
        }
    }

    /// Trims when at least `threshold` bytes are free; true when it trimmed.
    @discardableResult
    static func trimIfWorthIt(threshold: Int) -> Bool {
        #if canImport(CMalloc)
            guard mallinfo2().fordblks >= threshold else { return false }
            return malloc_trim(0) == 1
        #else
            return false
        #endif
    }
}
