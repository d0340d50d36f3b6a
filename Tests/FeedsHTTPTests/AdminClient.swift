import FeedsTestSupport
import Foundation
import NIOHTTP1
import Testing

/// A browser's part for the console tests: a cookie jar (what the server sets, as it sets it),
/// no redirects followed, forms sent URL-encoded.
final class AdminClient {
    let server: TestServer
    var cookies: [String: String] = [:]

    init(_ server: TestServer) {
        self.server = server
    }

    func get(_ path: String, headers: [(String, String)] = []) async throws -> TestServer.Reply {
        remember(try await server.send(.GET, path, headers: jar + headers, followRedirects: false))
    }

    func post(_ path: String, _ fields: [(String, String)], headers: [(String, String)] = []) async throws -> TestServer.Reply {
        try await postRaw(path, Self.encode(fields), headers: headers)
    }

    func postRaw(
        _ path: String, _ body: String, contentType: String = "application/x-www-form-urlencoded",
        headers: [(String, String)] = []
    ) async throws -> TestServer.Reply {
        remember(
            try await server.send(
                .POST, path, body: Data(body.utf8), headers: jar + [("Content-Type", contentType)] + headers,
                followRedirects: false))
    }

    /// Signs in through the form; returns the answer to the post.
    @discardableResult
    func signIn(
        key: String = TestServer.apiKey, secret: String = TestServer.apiSecret, token: String = "", next: String? = nil
    ) async throws -> TestServer.Reply {
        let form = try await get("/admin/sign-in" + (next.map { "?next=\(queryEncoded($0))" } ?? ""))
        var fields = [("csrf", try csrf(in: form)), ("api_key", key), ("api_secret", secret), ("server_token", token)]
        if let next { fields.append(("next", next)) }
        return try await post("/admin/sign-in", fields)
    }

    /// Signs in and expects it to work.
    func signedIn(sourceLocation: SourceLocation = #_sourceLocation) async throws -> AdminClient {
        let reply = try await signIn()
        #expect(reply.status == 303, "\(reply.text)", sourceLocation: sourceLocation)
        #expect(cookies["feeds_admin_session"] != nil, sourceLocation: sourceLocation)
        return self
    }

    /// The CSRF token of a page's (first) form.
    func csrf(in reply: TestServer.Reply) throws -> String {
        let marker = #"name="csrf" value=""#
        let start = try #require(reply.text.range(of: marker), "no CSRF field in: \(reply.text.prefix(400))").upperBound
        return String(reply.text[start...].prefix { $0 != "\"" })
    }

    /// The CSRF token of this client's session, from a page only signed-in admins see.
    func sessionCSRF() async throws -> String {
        try csrf(in: try await get("/admin/storage"))
    }

    private var jar: [(String, String)] {
        cookies.isEmpty ? [] : [("Cookie", cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))]
    }

    private func remember(_ reply: TestServer.Reply) -> TestServer.Reply {
        for header in reply.headers[canonicalForm: "set-cookie"] {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0]).trimmingCharacters(in: .whitespaces)
            let value = pair.count > 1 ? String(pair[1]) : ""
            if header.contains("Max-Age=0") || value.isEmpty { cookies[name] = nil } else { cookies[name] = value }
        }
        return reply
    }

    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(queryEncoded($0.0))=\(queryEncoded($0.1))" }.joined(separator: "&")
    }
}

extension TestServer.Reply {
    /// Where a redirect points.
    var location: String? { headers.first(name: "location") }
}
