import Foundation

/// A `multipart/form-data` body for tests, built in memory.
public struct MultipartForm: Sendable {
    public let boundary = "feeds-test-\(UUID().uuidString)"
    private var body = Data()

    public init() {}

    /// Adds a part; `fileName` makes it a file part.
    public mutating func add(_ name: String, fileName: String? = nil, contentType: String? = nil, _ data: Data) {
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\""
        if let fileName { head += "; filename=\"\(fileName)\"" }
        head += "\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        body.append(Data((head + "\r\n").utf8))
        body.append(data)
        body.append(Data("\r\n".utf8))
    }

    /// Adds a JSON part.
    public mutating func add(_ name: String, json: String) {
        add(name, contentType: "application/json", Data(json.utf8))
    }

    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The finished body.
    public var data: Data { body + Data("--\(boundary)--\r\n".utf8) }
}

extension TestServer {
    /// Sends a multipart form to the API as `user` (nil: the server).
    public func upload(_ path: String, as user: String?, form: MultipartForm, headers: [(String, String)] = []) async throws
        -> Reply
    {
        try await send(
            .POST, "/api/v2\(path)?api_key=\(apiKey)", body: form.data,
            headers: [("Stream-Auth-Type", "jwt"), ("Authorization", try await token(user)), ("Content-Type", form.contentType)]
                + headers
        )
    }

    /// GETs a URL the server handed out (absolute), exactly as given, following a redirect to the store.
    public func fetch(_ url: String, headers: [(String, String)] = []) async throws -> Reply {
        guard url.hasPrefix(baseURL) else { throw URLError(.badURL) }
        return try await send(.GET, String(url.dropFirst(baseURL.count)), headers: headers)
    }

    /// GETs a URL the server handed out, showing this server's own answer (a redirect, with S3).
    public func fetchOnce(_ url: String) async throws -> Reply {
        guard url.hasPrefix(baseURL) else { throw URLError(.badURL) }
        return try await send(.GET, String(url.dropFirst(baseURL.count)), followRedirects: false)
    }

    /// The objects in this server's store: files under the local CDN (not their sidecars), or
    /// the keys in its bucket.
    public func storedObjects() async throws -> [String] {
        if let bucket { return try await bucket.keys() }
        let root = configuration.cdnDirectory.path
        let paths = FileManager.default.enumerator(atPath: root)?.allObjects.compactMap { $0 as? String } ?? []
        return paths.filter { path in
            var isDirectory: ObjCBool = false
            return !path.hasSuffix(".meta")
                && FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }
    }
}
