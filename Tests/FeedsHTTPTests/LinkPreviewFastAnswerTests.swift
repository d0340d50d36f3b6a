import FeedsAuth
import FeedsCore
import FeedsServices
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import FeedsHTTP

/// What `LinkPreviewFastAnswer` answers on the event loop and what it leaves to the router, one
/// channel at a time. (`LinkPreviewTests` compares its answers with the router's over HTTP.)
@Suite struct LinkPreviewFastAnswerTests {
    static let url = "https://news.example/sea?x=1&y=2"
    static let preview = LinkPreview(
        title: "Sea & \"Sky\"", text: "Waves\nall day", imageURL: nil, authorName: "Beach News", type: "article",
        titleLink: "https://news.example/sea", scrapeURL: url)

    /// A channel with the answer in front of it, the preview remembered, and Alice's token.
    func setUp(limits: RateLimits = RateLimits()) async throws -> (EmbeddedChannel, Authenticator, String) {
        let authenticator = try await Authenticator(apiKey: "key", apiSecret: String(repeating: "s", count: 32))
        let recent = RecentPreviews()
        recent.keep(Self.preview)
        let previews = LinkPreviews(store: NoPreviewStore(), fetcher: LinkFetcher(), recent: recent)
        let answer = LinkPreviewFastAnswer(
            previews: previews, authenticator: authenticator, limiter: RateLimiter(limits: limits))
        let channel = EmbeddedChannel(handler: FastPath(answers: [answer], serverName: "feeds"))
        return (channel, authenticator, try await authenticator.token(userID: "alice"))
    }

    static func target(url: String = Self.url, key: String = "key") -> String {
        "/api/v2/og?api_key=\(key)&url=" + url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    func head(_ target: String, token: String, _ extra: HTTPFields = [:]) -> HTTPRequestPart {
        var fields: HTTPFields = [.authorization: token, .streamAuthType: "jwt"]
        fields.append(contentsOf: extra)
        return .head(HTTPRequest(method: .get, scheme: nil, authority: "x", path: target, headerFields: fields))
    }

    @Test func aRememberedPreviewIsAnsweredWithoutTheRouter() async throws {
        let (channel, _, token) = try await setUp()
        try channel.writeInbound(head(Self.target(), token: token, [RequestID.header: "req-1"]))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil, "nothing reached the router")
        guard case .head(let response) = try channel.readOutbound(as: HTTPResponsePart.self),
            case .body(let body) = try channel.readOutbound(as: HTTPResponsePart.self)
        else {
            Issue.record("no response")
            return
        }
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentType] == "application/json; charset=utf-8")
        #expect(response.headerFields[.contentLength] == String(body.readableBytes))
        #expect(response.headerFields[RequestID.header] == "req-1")
        #expect(response.headerFields[.rateLimitLimit] == "6000" && response.headerFields[.rateLimitRemaining] == "5999")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])
        #expect(json["title"] as? String == "Sea & \"Sky\"" && json["text"] as? String == "Waves\nall day")
        #expect(json["author_name"] as? String == "Beach News" && json["type"] as? String == "article")
        #expect(json["og_scrape_url"] as? String == Self.url && json["title_link"] as? String == "https://news.example/sea")
        #expect((json["custom"] as? [String: Any])?.isEmpty == true && (json["duration"] as? String)?.hasSuffix("ms") == true)
        #expect(json["image_url"] == nil && json["thumb_url"] == nil, "no stored image, no image fields")
    }

    /// Whatever the router would refuse, or answer otherwise, reaches it untouched.
    @Test func everythingElseGoesToTheRouter() async throws {
        let (channel, authenticator, token) = try await setUp()
        let server = try await authenticator.token(userID: nil)
        let expired = try await authenticator.token(userID: "alice", expiresAt: Date().addingTimeInterval(-60))
        authenticator.deactivated.update(deactivated: ["mallory"], reactivated: [])
        let mallory = try await authenticator.token(userID: "mallory")
        let others: [HTTPRequestPart] = [
            head(Self.target(url: "https://news.example/other"), token: token),  // not remembered
            head(Self.target(key: "wrong"), token: token),
            head(Self.target(), token: expired),
            head(Self.target(), token: mallory),
            head(Self.target(), token: token + "x"),
            head(Self.target(), token: token, [.accept: "text/html"]),
            head(Self.target(), token: token, [.connection: "close"]),
            head(Self.target() + "&url=x", token: token),  // twice
            head(Self.target() + "&extra=1", token: token),
            head("/api/v2/og?api_key=key&url=https://news.example/sea?x=1+2", token: token),
            head("/api/v2/og/?api_key=key&url=x", token: token),
            .head(
                HTTPRequest(method: .get, scheme: nil, authority: "x", path: Self.target(), headerFields: [.authorization: token])
            ),
            .head(
                HTTPRequest(
                    method: .post, scheme: nil, authority: "x", path: Self.target(),
                    headerFields: [.authorization: token, .streamAuthType: "jwt"])),
        ]
        for request in others {
            try channel.writeInbound(request)
            #expect(try channel.readInbound(as: HTTPRequestPart.self) != nil, "\(request)")
            #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
            try channel.writeOutbound(HTTPResponsePart.end(nil))  // the router's answer ends
            _ = try channel.readOutbound(as: HTTPResponsePart.self)
        }
        // A server token is answered here as the router would.
        try channel.writeInbound(head(Self.target(), token: server))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil)
    }

    /// Over the read budget, nothing is counted and the router answers the 429.
    @Test func aCallerOverTheirBudgetGoesToTheRouter() async throws {
        var limits = RateLimits()
        limits.read = .init(perUser: 2, perServer: 100, perAddress: 100)
        let (channel, _, token) = try await setUp(limits: limits)
        for remaining in ["1", "0"] {
            try channel.writeInbound(head(Self.target(), token: token))
            guard case .head(let response) = try channel.readOutbound(as: HTTPResponsePart.self) else {
                Issue.record("not answered")
                return
            }
            #expect(response.headerFields[.rateLimitRemaining] == remaining)
            _ = try channel.readOutbound(as: HTTPResponsePart.self)
            _ = try channel.readOutbound(as: HTTPResponsePart.self)
        }
        try channel.writeInbound(head(Self.target(), token: token))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) != nil)
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
    }

    /// While the router is answering an earlier request on the connection, a later one waits its turn.
    @Test func answersKeepTheConnectionsOrder() async throws {
        let (channel, _, token) = try await setUp()
        try channel.writeInbound(head(Self.target(url: "https://news.example/other"), token: token))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        _ = try channel.readInbound(as: HTTPRequestPart.self)
        _ = try channel.readInbound(as: HTTPRequestPart.self)
        try channel.writeInbound(head(Self.target(), token: token))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) != nil, "passed on behind the first")
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
    }
}

extension LinkPreviewFastAnswerTests {
    /// The query's values decode as Foundation decodes them, or not at all (then the router reads them).
    @Test(arguments: ["plain", "%41%42", "caf%C3%A9", "a%2Bb", "%2F%3F%26%3D", "", "100%25"])
    func valuesDecodeAsFoundationDecodesThem(encoded: String) {
        #expect(LinkPreviewFastAnswer.percentDecoded(Substring(encoded).utf8) == encoded.removingPercentEncoding)
    }

    @Test(arguments: ["a+b", "%4", "%", "%zz", "%FF", "%C3"])
    func doubtfulValuesAreLeftToTheRouter(encoded: String) {
        #expect(LinkPreviewFastAnswer.percentDecoded(Substring(encoded).utf8) == nil)
    }
}

/// The answer reads only memory: a query here is a failure.
struct NoPreviewStore: LinkPreviewStore {
    func preview(of url: String, since: Date, logger: Logger) async throws -> LinkPreview? {
        Issue.record("the store was read")
        return nil
    }

    func keep(_ preview: LinkPreview, logger: Logger) async throws {
        Issue.record("the store was written")
    }
}
