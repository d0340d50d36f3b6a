import Foundation
import Testing

@testable import FeedsHTTP

/// `APIOperation.all` is the spec's list of operations, method, path and name, and a request
/// finds the operation the router would run.
@Suite struct APIOperationTests {
    @Test func theTableIsTheSpecsOperations() throws {
        let spec = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../openapi.yaml")
        var operations: Set<String> = []
        var (path, method) = ("", "")
        for line in try String(contentsOf: spec, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("  /"), line.hasSuffix(":") { path = String(line.dropFirst(2).dropLast()) }
            if let match = line.wholeMatch(of: /\ {4}(get|post|put|patch|delete):/) { method = String(match.1).uppercased() }
            if let match = line.wholeMatch(of: /\ {6}operationId: (\w+)/) { operations.insert("\(method) \(path) \(match.1)") }
        }
        #expect(!operations.isEmpty)
        #expect(Set(APIOperation.all.map { "\($0.method.rawValue) \($0.path) \($0.name)" }) == operations)
    }

    @Test func requestsFindTheirOperation() {
        #expect(APIOperation.matching(.post, path: "/api/v2/feeds/activities/query")?.name == "QueryActivities")
        #expect(APIOperation.matching(.get, path: "/api/v2/feeds/activities/abc")?.name == "GetActivity")
        #expect(APIOperation.matching(.post, path: "/api/v2/feeds/activities/abc/reactions/query")?.name == "QueryActivityReactions")
        #expect(APIOperation.matching(.post, path: "/api/v2/uploads/image")?.rateLimitClass == .upload)
        #expect(APIOperation.matching(.post, path: "/api/v2/feeds/feed_groups/user/feeds/a")?.rateLimitClass == .read)
        #expect(APIOperation.matching(.delete, path: "/api/v2/feeds/follows/a:b/c:d")?.rateLimitClass == .write)
        #expect(APIOperation.matching(.get, path: "/api/v2/nothing") == nil)
    }

    @Test func trustedProxiesNameTheClientOnlyWhenTheyAreThePeer() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8", "::1"])
        #expect(proxies.contains("10.200.3.4") && proxies.contains("::1") && !proxies.contains("11.0.0.1"))
        #expect(proxies.client(peer: "10.0.0.1", forwardedFor: "203.0.113.9") == "203.0.113.9")
        #expect(proxies.client(peer: "10.0.0.1", forwardedFor: "1.1.1.1, 203.0.113.9, 10.0.0.2") == "203.0.113.9")
        #expect(proxies.client(peer: "198.51.100.7", forwardedFor: "203.0.113.9") == "198.51.100.7")
        #expect(proxies.client(peer: "10.0.0.1", forwardedFor: "garbage") == "10.0.0.1")
        #expect(throws: TrustedProxies.Invalid.self) { try TrustedProxies(["10.0.0.0/33"]) }
        #expect(throws: TrustedProxies.Invalid.self) { try TrustedProxies(["example.com"]) }
    }
}
