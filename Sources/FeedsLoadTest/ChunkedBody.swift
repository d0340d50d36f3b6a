import NIOCore

/// A request body made of buffers that already exist (framing, a tag, a slice of the shared
/// bytes), so a large upload is sent without being copied into one buffer.
struct ChunkedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let chunks: [ByteBuffer]

    var length: Int { chunks.reduce(0) { $0 + $1.readableBytes } }

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: IndexingIterator<[ByteBuffer]>
        mutating func next() async -> ByteBuffer? { remaining.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: chunks.makeIterator()) }
}

/// A `multipart/form-data` body built from parts, each given as chunks.
struct MultipartChunks {
    let boundary: String
    private(set) var chunks: [ByteBuffer] = []

    init(boundary: String) { self.boundary = boundary }

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    mutating func add(name: String, fileName: String? = nil, contentType: String, _ body: [ByteBuffer]) {
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\""
        if let fileName { head += "; filename=\"\(fileName)\"" }
        head += "\r\nContent-Type: \(contentType)\r\n\r\n"
        chunks.append(ByteBuffer(string: head))
        chunks += body
        chunks.append(ByteBuffer(string: "\r\n"))
    }

    /// The finished body.
    var body: ChunkedBody { ChunkedBody(chunks: chunks + [ByteBuffer(string: "--\(boundary)--\r\n")]) }
}
