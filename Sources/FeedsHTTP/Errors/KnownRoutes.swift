import FeedsCore
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// The API's routes, recorded as they are registered, so that a request with the wrong method
/// gets 405 with `Allow` rather than a bare 404.
final class KnownRoutes: Sendable {
    private let routes = NIOLockedValueBox<[(method: HTTPRequest.Method, segments: [Substring])]>([])

    func record(method: HTTPRequest.Method, path: String) {
        routes.withLockedValue { $0.append((method, path.split(separator: "/"))) }
    }

    /// The error for a request no route matched, and the `Allow` header when the path exists.
    func unmatched(method: HTTPRequest.Method, path: String) -> (FeedsError, allow: String?) {
        let segments = path.split(separator: "/")
        // The router prefers literal segments to parameters, so only the most specific templates count.
        let methods = routes.withLockedValue { routes in
            let matching = routes.filter { Self.matches($0.segments, segments) }
            let best = matching.map { Self.literals($0.segments) }.max()
            return matching.filter { Self.literals($0.segments) == best }.map(\.method.rawValue)
        }
        guard !methods.isEmpty else {
            return (.notFound("no route for \(method.rawValue) \(path)"), nil)
        }
        let allow = Array(Set(methods)).sorted().joined(separator: ", ")
        return (FeedsError(.methodNotAllowed, "\(method.rawValue) is not allowed on \(path); use \(allow)"), allow)
    }

    private static func literals(_ template: [Substring]) -> Int {
        template.filter { !$0.hasPrefix("{") && !$0.hasPrefix(":") }.count
    }

    private static func matches(_ template: [Substring], _ path: [Substring]) -> Bool {
        template.count == path.count
            && zip(template, path).allSatisfy { t, p in t.hasPrefix("{") || t.hasPrefix(":") || t == p }
    }
}
