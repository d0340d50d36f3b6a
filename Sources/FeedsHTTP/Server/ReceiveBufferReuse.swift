#if canImport(Glibc)
    import Glibc
#endif

/// Keeps freed receive buffers in the process for the next reads to reuse.
///
/// An upload's 256 KB reads (`LargeReadsHandler`) are held until they are written and hashed,
/// so NIO allocates a new buffer for nearly every read. glibc handed each back to the kernel
/// when freed (buffers that size are mapped afresh, or trimmed off the heap's top), and the next
/// read faulted its pages in again. With buffers up to 1 MB taken from the heap, and up to 32 MB
/// of free heap kept, they are reused instead, for a few megabytes of peak memory.
enum ReceiveBufferReuse {
    static let heapAllocationsUpTo = 1 << 20
    static let freeHeapKept = 32 << 20

    /// Sets glibc's thresholds for the whole process, once, before the server starts.
    static func apply() {
        #if canImport(Glibc)
            // `mallopt` is declared in <malloc.h>, which Swift's Glibc module leaves out; the
            // option numbers are glibc's (M_TRIM_THRESHOLD -1, M_MMAP_THRESHOLD -3). Setting either
            // also stops glibc from raising them by itself as large blocks are freed.
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            _ = mallopt(-3, Int32(heapAllocationsUpTo))
            _ = mallopt(-1, Int32(freeHeapKept))
        #endif
    }
}
