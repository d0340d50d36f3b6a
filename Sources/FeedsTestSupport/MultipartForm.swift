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

    /// GETs a URL the server handed out (absolute), exactly as given.
    public func fetch(_ url: String, headers: [(String, String)] = []) async throws -> Reply {
        guard url.hasPrefix(baseURL) else { throw URLError(.badURL) }
        return try await send(.GET, String(url.dropFirst(baseURL.count)), headers: headers)
    }
}
