import AsyncHTTPClient
import FeedsCore
import FeedsUploads
import Foundation
import NIOCore
import NIOHTTP1

/// Fetches a web page for its preview: an outbound request a client chooses the target of, so
/// held to what cannot reach inside: http and https only, on ports 80 and 443, to hosts whose
/// every address is public (`PublicAddress`), checked after resolving and connected to the
/// address checked (so a second answer cannot differ); each redirect (at most 5) checked again;
/// HTML only, its first megabyte (a preview's image: an image, at most 5 MB), all in 5 seconds.
/// `allowedHosts` (tests, intranets) may be anywhere, on any port.
package struct LinkFetcher: Sendable {
    let allowedHosts: Set<String>
    static let maxBytes = 1 << 20
    static let maxRedirects = 5
    /// The longest URL fetched.
    static let maxURLBytes = 2048
    static let limit = Duration.seconds(5)

    package init(allowedHosts: Set<String> = []) {
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
    }

    /// The page at `url` as text (its first megabyte), and the URL it ended at after redirects.
    package func page(_ url: String) async throws -> (html: String, url: URL) {
        try await follow(url, accepting: Self.pageTypes) { body in
            var page = ByteBuffer()
            for try await chunk in body {
                page.writeImmutableBuffer(
                    chunk.getSlice(at: chunk.readerIndex, length: min(chunk.readableBytes, Self.maxBytes - page.readableBytes))!)
                if page.readableBytes >= Self.maxBytes { break }
            }
            return String(decoding: page.readableBytesView, as: UTF8.self)
        }
    }

    /// The image at `url` (a page's `og:image`), streamed whole to a temp file in `directory`, at
    /// most `maxImageBytes`, a JPEG stripped of its metadata on the way when `strippingJPEG`.
    package func image(_ url: String, into directory: URL, strippingJPEG: Bool) async throws -> ReceivedFile {
        let (written, landed) = try await follow(url, accepting: ["image/"]) { body in
            do {
                return try await TempFileWriter.write(
                    body, to: directory, limit: SizeLimit(bytes: Self.maxImageBytes, rule: "a preview image's limit"),
                    strippingJPEG: strippingJPEG)
            } catch let error as FeedsError where error.kind == .payloadTooLarge {
                throw Self.refused("the image is over \(Self.maxImageBytes >> 20) MB")
            }
        }
        let name = landed.lastPathComponent.isEmpty ? "preview" : landed.lastPathComponent
        return ReceivedFile(
            part: "og:image", fileName: ObjectKey.safeFileName(name), declaredType: nil, url: written.url, size: written.size,
            sha256: written.sha256, metadata: written.metadata)
    }

    static let pageTypes = ["text/html", "application/xhtml+xml"]
    /// The largest preview image fetched.
    static let maxImageBytes: Int64 = 5 << 20

    /// Follows `url` through its redirects, every step checked, to an answer of one of `types`
    /// (prefixes of its Content-Type), which `read` reads; all in 5 seconds.
    private func follow<T: Sendable>(
        _ url: String, accepting types: [String], read: @escaping @Sendable (HTTPClientResponse.Body) async throws -> T
    ) async throws -> (T, URL) {
        try await withDeadline(Self.limit, orThrow: { Self.refused("the link did not answer in 5 seconds") }) {
            var current = try Self.parse(url)
            for _ in 0...Self.maxRedirects {
                switch try await fetch(current, accepting: types, read: read) {
                case .done(let value): return (value, current)
                case .redirect(let location):
                    guard let next = URL(string: location, relativeTo: current)?.absoluteURL else {
                        throw Self.refused("the link redirects to \(location.prefix(200)), not a URL")
                    }
                    current = try Self.parse(next.absoluteString)
                }
            }
            throw Self.refused("the link redirects more than \(Self.maxRedirects) times")
        }
    }

    private enum Outcome<T> {
        case done(T)
        case redirect(String)
    }

    private func fetch<T>(
        _ url: URL, accepting types: [String], read: (HTTPClientResponse.Body) async throws -> T
    ) async throws -> Outcome<T> {
        guard let host = url.host?.lowercased() else { throw Self.refused("the URL has no host") }
        let allowed = allowedHosts.contains(host)
        if !allowed, let port = url.port, port != 80, port != 443 {
            throw Self.refused("links are fetched on ports 80 and 443 only")
        }
        let address = try await Self.address(of: host, anywhere: allowed)
        var configuration = HTTPClient.Configuration()
        configuration.dnsOverride = [host: address]
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(5))
        configuration.decompression = .disabled
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        defer { client.shutdown { _ in } }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: "Feeds link preview")
        request.headers.add(name: "Accept", value: types == ["image/"] ? "image/*" : types.joined(separator: ","))
        request.headers.add(name: "Accept-Encoding", value: "identity")
        let response = try await client.execute(request, timeout: .seconds(5))
        if (300..<400).contains(Int(response.status.code)), let location = response.headers.first(name: "Location") {
            return .redirect(location)
        }
        guard response.status == .ok else { throw Self.refused("the link answered \(response.status.code)") }
        let type = (response.headers.first(name: "Content-Type") ?? "").lowercased()
        guard types.contains(where: { type.hasPrefix($0) }) else {
            let wanted = types == ["image/"] ? "an image" : "an HTML page"
            throw Self.refused("the link is \(type.isEmpty ? "of no type" : type.prefix(100)), not \(wanted)")
        }
        return .done(try await read(response.body))
    }

    /// `text` as a URL we fetch: http or https, a host, no user or password.
    static func parse(_ text: String) throws -> URL {
        guard text.utf8.count <= maxURLBytes, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { throw FeedsError.input("url must be an http or https URL of at most 2048 characters", field: "url") }
        guard url.user == nil, url.password == nil else {
            throw FeedsError.input("url must not hold a user or password", field: "url")
        }
        return url
    }

    /// An address of `host` to connect to (`OutboundAddress`), public unless `anywhere`.
    static func address(of host: String, anywhere: Bool) async throws -> String {
        do {
            return try await OutboundAddress.address(of: host, anywhere: anywhere)
        } catch .unresolved {
            throw refused("\(host.prefix(200)) does not resolve")
        } catch .notPublic {
            throw refused("\(host.prefix(200)) is not on the public internet")
        }
    }

    static func refused(_ why: String) -> FeedsError {
        FeedsError.input("no preview: \(why)", field: "url")
    }
}
