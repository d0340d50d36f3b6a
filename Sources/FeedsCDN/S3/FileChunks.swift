import Foundation
import NIOCore

/// A file's bytes as an async sequence of chunks, read one chunk at a time when the consumer asks
/// (the HTTP client asks as the socket drains), so a 100 MB upload holds one chunk in memory.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let path: String
    let chunkSize: Int
    /// Called with the bytes read so far after each chunk.
    let progress: @Sendable (Int64) -> Void

    init(path: String, chunkSize: Int = 256 * 1024, progress: @escaping @Sendable (Int64) -> Void = { _ in }) {
        self.path = path
        self.chunkSize = chunkSize
        self.progress = progress
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(reader: Reader(path: path), chunkSize: chunkSize, progress: progress)
    }

    struct Iterator: AsyncIteratorProtocol {
        let reader: Reader
        let chunkSize: Int
        let progress: @Sendable (Int64) -> Void

        mutating func next() async throws -> ByteBuffer? {
            let (reader, size) = (reader, chunkSize)
            let chunk = try await BlockingIO.run { try reader.read(upTo: size) }
            if chunk != nil { progress(reader.total) }
            return chunk
        }
    }

    /// Owns the descriptor: opened on the first read, closed at the end or when dropped.
    final class Reader: @unchecked Sendable {
        // Used by one read at a time: the iterator awaits each read before asking for the next.
        private let path: String
        private var descriptor: Int32 = -1
        private var finished = false
        private(set) var total: Int64 = 0

        init(path: String) { self.path = path }

        deinit { if descriptor >= 0 { FileSystem.closeDescriptor(descriptor) } }

        func read(upTo count: Int) throws -> ByteBuffer? {
            guard !finished else { return nil }
            if descriptor < 0 { descriptor = try FileSystem.openForReading(path) }
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            let descriptor = descriptor
            let read = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { pointer in
                try FileSystem.readChunk(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: pointer[..<count]))
            }
            guard read > 0 else {
                finished = true
                FileSystem.closeDescriptor(descriptor)
                self.descriptor = -1
                return nil
            }
            total += Int64(read)
            return buffer
        }
    }
}
