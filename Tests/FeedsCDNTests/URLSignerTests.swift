import FeedsCDN
import FeedsCore
import Foundation
import Testing

@Suite struct URLSignerTests {
    let signer = URLSigner(publicURL: URL(string: "https://feeds.example.com")!, apiSecret: "secret")
    let key = ObjectKey(fileName: "holiday photo.jpg")
    let expiresAt = Date(timeIntervalSince1970: 1_800_000_000)

    private func query(_ url: URL) -> [String: String] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
    }

    private func check(_ url: URL, now: Date) -> SignatureCheck {
        let parameters = query(url)
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)!.path
        return signer.verify(
            key: String(path.dropFirst("/cdn/".count)), expires: parameters["Expires"],
            signature: parameters["Signature"], now: now)
    }

    @Test func signedURLHasTheDocumentedForm() throws {
        let url = signer.url(for: key, expiresAt: expiresAt)
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        #expect(components.scheme == "https")
        #expect(components.host == "feeds.example.com")
        #expect(components.path == "/cdn/\(key.rawValue)")
        #expect(components.queryItems?.map(\.name) == ["Expires", "Signature"])
        let signature = try #require(query(url)["Signature"])
        #expect(query(url)["Expires"] == "1800000000")
        // 32 bytes in unpadded base64url.
        #expect(signature.count == 43)
        #expect(!signature.contains(where: { "+/=".contains($0) }))
    }

    @Test func roundTripIsValidUntilTheExpiry() {
        let url = signer.url(for: key, expiresAt: expiresAt)
        #expect(check(url, now: expiresAt.addingTimeInterval(-86_400)) == .valid)
        #expect(check(url, now: expiresAt.addingTimeInterval(-1)) == .valid)
        #expect(check(url, now: expiresAt) == .expired)
        #expect(check(url, now: expiresAt.addingTimeInterval(3600)) == .expired)
    }

    @Test func fractionalExpiryRoundsDown() {
        let url = signer.url(for: key, expiresAt: expiresAt.addingTimeInterval(0.9))
        #expect(query(url)["Expires"] == "1800000000")
        #expect(check(url, now: expiresAt.addingTimeInterval(-0.5)) == .valid)
    }

    @Test func anotherKeyIsBad() {
        let parameters = query(signer.url(for: key, expiresAt: expiresAt))
        let other = ObjectKey(fileName: "holiday photo.jpg")
        let now = expiresAt.addingTimeInterval(-60)
        #expect(
            signer.verify(key: other.rawValue, expires: parameters["Expires"], signature: parameters["Signature"], now: now)
                == .bad)
        #expect(
            signer.verify(key: key.rawValue + "x", expires: parameters["Expires"], signature: parameters["Signature"], now: now)
                == .bad)
        #expect(
            signer.verify(key: key.rawValue, expires: parameters["Expires"], signature: parameters["Signature"], now: now)
                == .valid)
    }

    @Test func tamperedSignatureIsBad() throws {
        let parameters = query(signer.url(for: key, expiresAt: expiresAt))
        let signature = try #require(parameters["Signature"])
        let flipped = String(signature.dropLast()) + (signature.last == "A" ? "B" : "A")
        let now = expiresAt.addingTimeInterval(-60)
        for forged in [
            flipped, String(signature.dropLast()), signature + "A", signature + "=", "not base64!",
            String(repeating: "A", count: 43),
        ] {
            #expect(
                signer.verify(key: key.rawValue, expires: parameters["Expires"], signature: forged, now: now) == .bad, "\(forged)"
            )
        }
    }

    @Test func extendingTheExpiryIsBad() throws {
        let parameters = query(signer.url(for: key, expiresAt: expiresAt))
        let signature = try #require(parameters["Signature"])
        let now = expiresAt.addingTimeInterval(60)
        for expires in ["1900000000", "01800000000", "+1800000000", "1800000000 ", "-1", "1e10", "99999999999999999999999"] {
            #expect(signer.verify(key: key.rawValue, expires: expires, signature: signature, now: now) == .bad, "\(expires)")
        }
    }

    @Test func missingParametersAreMissing() throws {
        let parameters = query(signer.url(for: key, expiresAt: expiresAt))
        let expires = try #require(parameters["Expires"])
        let signature = try #require(parameters["Signature"])
        let now = expiresAt.addingTimeInterval(-60)
        #expect(signer.verify(key: key.rawValue, expires: nil, signature: signature, now: now) == .missing)
        #expect(signer.verify(key: key.rawValue, expires: expires, signature: nil, now: now) == .missing)
        #expect(signer.verify(key: key.rawValue, expires: nil, signature: nil, now: now) == .missing)
        #expect(signer.verify(key: key.rawValue, expires: "", signature: signature, now: now) == .missing)
        #expect(signer.verify(key: key.rawValue, expires: expires, signature: "", now: now) == .missing)
    }

    @Test func anotherSecretIsBad() {
        let url = signer.url(for: key, expiresAt: expiresAt)
        let other = URLSigner(publicURL: signer.publicURL, apiSecret: "other secret")
        let parameters = query(url)
        #expect(
            other.verify(key: key.rawValue, expires: parameters["Expires"], signature: parameters["Signature"], now: .distantPast)
                == .bad)
    }

    @Test func apiSecretIsNotUsedAsTheKeyDirectly() {
        let derived = signer.url(for: key, expiresAt: expiresAt)
        let raw = URLSigner(publicURL: signer.publicURL, secret: Data("secret".utf8)).url(for: key, expiresAt: expiresAt)
        #expect(query(derived)["Signature"] != query(raw)["Signature"])
        let again = URLSigner(publicURL: signer.publicURL, apiSecret: "secret").url(for: key, expiresAt: expiresAt)
        #expect(again == derived)
    }

    @Test func recognisesItsOwnURLs() throws {
        let url = signer.url(for: key, expiresAt: expiresAt)
        #expect(signer.objectKey(inURL: url.absoluteString) == key)
        // Expired, unsigned or resized: still ours, which is what delete and linking need.
        #expect(signer.objectKey(inURL: "https://feeds.example.com/cdn/\(key.rawValue)") == key)
        #expect(signer.objectKey(inURL: "https://FEEDS.example.com:443/cdn/\(key.rawValue)?w=100&h=50") == key)
        #expect(signer.objectKey(inURL: "HTTPS://feeds.example.com/cdn/\(key.rawValue)#top") == key)
    }

    @Test(arguments: [
        "http://feeds.example.com/cdn/",  // scheme
        "https://cdn.example.com/cdn/",  // host
        "https://feeds.example.com.evil.test/cdn/",  // host suffix
        "https://feeds.example.com:8443/cdn/",  // port
        "https://user@feeds.example.com/cdn/",  // credentials
        "https://feeds.example.com/files/",  // path
        "https://feeds.example.com/x/cdn/",  // path prefix
        "https://feeds.example.com/CDN/",  // case of the path
        "/cdn/",  // relative
    ])
    func rejectsURLsThatAreNotOurs(prefix: String) {
        let key = ObjectKey(fileName: "a.png")
        #expect(signer.objectKey(inURL: prefix + key.rawValue) == nil)
    }

    @Test func rejectsMalformedKeysUnderOurPath() {
        let hex = String(repeating: "a", count: 32)
        for path in [
            "", hex, "\(hex)/", "\(hex)/a/b", "\(hex)/../etc", "../\(hex)/x", "\(hex)/%2e%2e", "\(hex)/a%2fb", "\(hex)/.hidden",
            "abc/x.png", "\(hex)/a b",
        ] {
            #expect(signer.objectKey(inURL: "https://feeds.example.com/cdn/" + path) == nil, "\(path)")
        }
        #expect(signer.objectKey(inURL: "not a url at all") == nil)
        #expect(signer.objectKey(inURL: "") == nil)
    }

    @Test func publicURLWithAPathPrefix() throws {
        let prefixed = URLSigner(publicURL: URL(string: "http://localhost:8080/feeds/")!, apiSecret: "s")
        let url = prefixed.url(for: key, expiresAt: expiresAt)
        #expect(url.absoluteString.hasPrefix("http://localhost:8080/feeds/cdn/\(key.rawValue)?Expires="))
        #expect(prefixed.objectKey(inURL: url.absoluteString) == key)
        #expect(prefixed.objectKey(inURL: "http://localhost:8080/cdn/\(key.rawValue)") == nil)
        #expect(prefixed.objectKey(inURL: "http://localhost/feeds/cdn/\(key.rawValue)") == nil)
    }

    @Test func nonASCIIHexIsNotAKey() {
        // Fullwidth letters pass `Character.isHexDigit`; keys take ASCII hex only, so none reaches a path or URL.
        #expect(ObjectKey(rawValue: String(repeating: "\u{FF41}", count: 32) + "/a.png") == nil)
        #expect(
            signer.objectKey(inURL: "https://feeds.example.com/cdn/\(String(repeating: "%EF%BD%81", count: 32))/a.png") == nil)
    }
}
