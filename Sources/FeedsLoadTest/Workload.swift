import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

#if canImport(Glibc)
    import Glibc
#endif

/// The request of each operation, and what its reply acknowledges. Request number `index` goes
/// to user `index % users`; its text and file tag carry the run id and the index, so every write
/// is unique and recognisable when read back.
struct Workload: Sendable {
    let options: LoadTestOptions
    let tokens: [String]
    /// The bulk of every uploaded file.
    let shared: ByteBuffer
    let runID: String

    /// A request ready to send, and what a 2xx reply to it means.
    struct Prepared {
        var request: HTTPClientRequest
        var expectation: Expectation
        var uploadBytes: Int64
    }

    /// What the reply to a write should acknowledge.
    enum Expectation {
        case activity(user: Int, text: String, file: TestFile?)
        case upload(user: Int, file: TestFile)
        case read
    }

    init(options: LoadTestOptions, tokens: [String], runID: String) {
        self.options = options
        self.tokens = tokens
        self.runID = runID
        var generator = SystemRandomNumberGenerator()
        var shared = ByteBufferAllocator().buffer(capacity: options.fileSize)
        // Random bytes: incompressible, and sniffed as plain binary.
        for _ in 0..<(options.fileSize + 7) / 8 { shared.writeInteger(generator.next() as UInt64) }
        self.shared = shared
    }

    func prepare(_ operation: Operation, index: Int) -> Prepared {
        let user = index % tokens.count
        let userID = options.userID(user)
        let text = "\(runID)-\(index)"
        switch operation {
        case .createActivity:
            let json = #"{"type":"loadtest","feeds":["user:\#(userID)"],"text":"\#(text)","custom":{"seq":\#(index)}}"#
            var request = apiRequest("/feeds/activities", user: user)
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
            return Prepared(request: request, expectation: .activity(user: user, text: text, file: nil), uploadBytes: 0)
        case .readFeed, .readTimeline:
            let group = operation == .readFeed ? "user" : "timeline"
            var request = apiRequest("/feeds/feed_groups/\(group)/feeds/\(userID)", user: user)
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: #"{"limit":25}"#))
            return Prepared(request: request, expectation: .read, uploadBytes: 0)
        case .uploadFile:
            let file = TestFile(tag: text, size: options.fileSize)
            var form = MultipartChunks(boundary: "loadtest-\(text)")
            form.add(
                name: "file", fileName: "load-\(index).bin", contentType: "application/octet-stream", file.chunks(shared: shared))
            return Prepared(
                request: multipart("/uploads/file", user: user, form), expectation: .upload(user: user, file: file),
                uploadBytes: Int64(file.size))
        case .activityWithUploads:
            let file = TestFile(tag: text, size: options.fileSize)
            let json = #"""
                {"type":"loadtest","feeds":["user:\#(userID)"],"text":"\#(text)","custom":{"seq":\#(index)},
                 "attachment_uploads":[{"type":"file","file":"f0"}]}
                """#
            var form = MultipartChunks(boundary: "loadtest-\(text)")
            form.add(name: "activity", contentType: "application/json", [ByteBuffer(string: json)])
            form.add(
                name: "f0", fileName: "load-\(index).bin", contentType: "application/octet-stream", file.chunks(shared: shared))
            return Prepared(
                request: multipart("/feeds/activities", user: user, form),
                expectation: .activity(user: user, text: text, file: file), uploadBytes: Int64(file.size))
        }
    }

    /// The write a 2xx reply acknowledges; nil for reads, and for a reply that names no write
    /// (which the runner counts as an error).
    static func acknowledgement(_ expectation: Expectation, reply: ByteBuffer) -> (Acknowledged?, valid: Bool) {
        if case .read = expectation {
            // A page is 25 activities of JSON: looking for its array, not parsing it, keeps the
            // tester's own CPU (on the same machine as the server, often) out of the measure.
            return (nil, Self.contains(reply, Self.activitiesKey))
        }
        let json = (try? JSONSerialization.jsonObject(with: Data(buffer: reply))) as? [String: Any]
        switch expectation {
        case .read:
            return (nil, false)
        case .activity(let user, let text, let file):
            guard let id = (json?["activity"] as? [String: Any])?["id"] as? String else { return (nil, false) }
            return (.activity(id: id, user: user, text: text, file: file), true)
        case .upload(let user, let file):
            guard let url = json?["file"] as? String else { return (nil, false) }
            return (.upload(url: url, user: user, file: file), true)
        }
    }

    static let activitiesKey = Array(#""activities":["#.utf8)

    /// Whether `needle` occurs in `buffer`: `memchr` to each candidate, then `memcmp`. (The standard
    /// library's generic `firstRange(of:)` took seconds on a page of JSON.)
    static func contains(_ buffer: ByteBuffer, _ needle: [UInt8]) -> Bool {
        buffer.withUnsafeReadableBytes { haystack in
            guard let base = haystack.baseAddress, haystack.count >= needle.count else { return false }
            var offset = 0
            while offset <= haystack.count - needle.count {
                guard let hit = memchr(base + offset, Int32(needle[0]), haystack.count - needle.count - offset + 1) else {
                    return false
                }
                let at = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + at, needle, needle.count) == 0 { return true }
                offset = at + 1
            }
            return false
        }
    }

    /// A request to `/api/v2` + `path` as user number `user`.
    func apiRequest(_ path: String, user: Int, method: HTTPMethod = .POST) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: "\(options.url)/api/v2\(path)?api_key=\(options.apiKey)")
        request.method = method
        request.headers.add(name: "Stream-Auth-Type", value: "jwt")
        request.headers.add(name: "Authorization", value: tokens[user])
        return request
    }

    private func multipart(_ path: String, user: Int, _ form: MultipartChunks) -> HTTPClientRequest {
        var request = apiRequest(path, user: user)
        request.headers.add(name: "Content-Type", value: form.contentType)
        let body = form.body
        request.body = .stream(body, length: .known(Int64(body.length)))
        return request
    }
}
