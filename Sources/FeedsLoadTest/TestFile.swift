import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes a load test uploads: a 16-byte tag unique to the request, then bytes shared by all
/// requests, `size` in all. Each file differs, yet none is copied or hashed per request, and a file
/// read back is compared byte for byte against what was sent.
public struct TestFile: Sendable, Hashable {
    public let tag: [UInt8]
    public let size: Int

    static let tagLength = 16

    init(tag: String, size: Int) {
        self.tag =
            Array(tag.utf8.prefix(Self.tagLength))
            + Array(repeating: UInt8(ascii: "-"), count: max(0, Self.tagLength - tag.utf8.count))
        self.size = size
    }

    /// The file's bytes as chunks: the tag and a slice of `shared`, no copies of the bulk.
    func chunks(shared: ByteBuffer) -> [ByteBuffer] {
        let head = min(size, tag.count)
        var chunks = [ByteBuffer(bytes: tag.prefix(head))]
        if size > head { chunks.append(shared.getSlice(at: shared.readerIndex, length: size - head)!) }
        return chunks
    }

    /// Compares bytes read back, chunk by chunk, with what was sent.
    struct Comparison {
        let file: TestFile
        let shared: ByteBuffer
        private(set) var offset = 0
        private(set) var differs = false

        init(file: TestFile, shared: ByteBuffer) {
            self.file = file
            self.shared = shared
        }

        mutating func feed(_ chunk: ByteBuffer) {
            guard !differs else { return }
            let count = chunk.readableBytes
            guard offset + count <= file.size else {
                differs = true
                return
            }
            let tag = file.tag
            let start = offset
            let equal = chunk.withUnsafeReadableBytes { bytes in
                shared.withUnsafeReadableBytes { bulk in
                    var position = 0
                    // The tag byte by byte, then the bulk with memcmp: reading back 100 MB stays cheap.
                    while position < count, start + position < tag.count {
                        if bytes[position] != tag[start + position] { return false }
                        position += 1
                    }
                    guard position < count else { return true }
                    let bulkOffset = start + position - tag.count
                    return memcmp(bytes.baseAddress! + position, bulk.baseAddress! + bulkOffset, count - position) == 0
                }
            }
            differs = !equal
            offset += count
        }

        /// Whether every byte arrived and matched.
        var matches: Bool { !differs && offset == file.size }
    }
}
