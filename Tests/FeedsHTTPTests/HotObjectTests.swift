import FeedsCDN
import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Small objects are served from memory after their first read (`CDNFastAnswer`): the same answer
/// as from disk, never one the disk no longer has, and in order on a connection.
@Suite struct HotObjectTests {
    static let bytes = Data((0..<10_240).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    func upload(_ server: TestServer, name: String = "notes.bin") async throws -> String {
        var form = MultipartForm()
        form.add("file", fileName: name, contentType: nil, Self.bytes)
        let reply = try await server.upload("/uploads/file", as: "alice", form: form)
        #expect(reply.status == 201, "\(reply.text)")
        return try #require(reply.body["file"].string)
    }

    @Test func theAnswerFromMemoryIsTheAnswerFromDisk() async throws {
        try await TestServer.run { server in
            let url = try await upload(server)
            let fromDisk = try await server.fetch(url)
            let fromMemory = try await server.fetch(url, headers: [("x-client-request-id", "hot-1")])
            for reply in [fromDisk, fromMemory] {
                #expect(reply.status == 200)
                #expect(reply.data == Self.bytes)
            }
            for name in [
                "Content-Type", "Content-Disposition", "ETag", "Accept-Ranges", "Content-Length", "X-Content-Type-Options",
                "Content-Security-Policy", "Server",
            ] {
                #expect(fromMemory.headers.first(name: name) == fromDisk.headers.first(name: name), "\(name)")
                #expect(fromMemory.headers.first(name: name) != nil, "\(name)")
            }
            #expect(fromMemory.headers.first(name: "Content-Disposition") == #"attachment; filename="notes.bin""#)
            let maxAge = try #require(fromMemory.headers.first(name: "Cache-Control"))
            #expect(maxAge.hasPrefix("public, max-age=") && Int(maxAge.dropFirst(16))! > 0)
            #expect(fromMemory.headers.first(name: "x-client-request-id") == "hot-1")
            #expect(fromMemory.headers.first(name: "Date") != nil)

            // What the fast path leaves to the routes still works on a hot object.
            let range = try await server.fetch(url, headers: [("Range", "bytes=0-9")])
            #expect(range.status == 206 && range.data == Self.bytes.prefix(10))
            let etag = try #require(fromDisk.headers.first(name: "ETag"))
            #expect(try await server.fetch(url, headers: [("If-None-Match", etag)]).status == 304)
            let tampered = url.replacingOccurrences(of: "Signature=", with: "Signature=A")
            expectAPIError(try await server.fetch(tampered), status: 403, code: 17)
            let expired = url.replacingOccurrences(of: #"Expires=\d+"#, with: "Expires=1000", options: .regularExpression)
            expectAPIError(try await server.fetch(expired), status: 403, code: 17)
        }
    }

    @Test func anObjectDeletedHereOrByAnotherNodeIsNotServedFromMemory() async throws {
        try await TestServer.run { server in
            let deleted = try await upload(server)
            _ = try await server.fetch(deleted)
            #expect(try await server.fetch(deleted).status == 200)
            let query = "&url=\(deleted.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            #expect(try await server.api(.DELETE, "/uploads/file", as: "alice", query: query).status == 200)
            expectAPIError(try await server.fetch(deleted), status: 404, code: 16)

            // Another node sharing the directory removes the file: this node's memory must not outlive it.
            let removed = try await upload(server, name: "other.bin")
            _ = try await server.fetch(removed)
            #expect(try await server.fetch(removed).status == 200)
            let files = try await server.storedObjects()
            #expect(files.count == 1)
            try FileManager.default.removeItem(atPath: server.configuration.cdnDirectory.path + "/" + files[0])
            expectAPIError(try await server.fetch(removed), status: 404, code: 16)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await TestServer.run { server in
            let url = try await upload(server)
            _ = try await server.fetch(url)  // now hot
            let target = String(url.dropFirst(server.baseURL.count))
            // A request the routes answer, then the hot object, then one more that closes: all in one write.
            let requests =
                "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" + "GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let port = try #require(URL(string: server.baseURL)?.port)
            let answer = try await BlockingIO.run { try Self.exchange(Array(requests.utf8), port: port) }
            let health = Array(#"{"status":"ok"}"#.utf8)
            let first = try #require(Self.find(health, in: answer))
            let file = try #require(Self.find(Array(Self.bytes.prefix(64)), in: answer))
            let last = try #require(Self.find(health, in: answer, from: file))
            #expect(first < file && file < last)
            #expect(answer.count - last < 64, "three answers and nothing more")
        }
    }

    /// Writes `request` on a new connection and reads until the server closes it.
    static func exchange(_ request: [UInt8], port: Int) throws -> [UInt8] {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        guard send(socket, request, request.count, 0) == request.count else { throw POSIXError(.EIO) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            answer += buffer.prefix(count)
        }
        return answer
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (start...(haystack.count - needle.count)).first { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
