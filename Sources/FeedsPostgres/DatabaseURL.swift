import Foundation
import NIOSSL
import PostgresNIO

/// Reads a `DATABASE_URL` (`postgres://user:password@host:port/database?sslmode=…`).
public enum DatabaseURL {
    /// The client configuration a URL describes; `sslmode` is `disable` (default), `prefer` or `require`.
    public static func configuration(_ text: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: text),
            ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, !host.isEmpty
        else {
            throw DatabaseURLError(text: text, reason: "expected postgres://user:password@host:port/database")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        let tls: PostgresClient.Configuration.TLS
        switch mode {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        default: throw DatabaseURLError(text: text, reason: "unknown sslmode \(mode)")
        }
        return PostgresClient.Configuration(
            host: host,
            port: components.port ?? 5432,
            username: components.user?.removingPercentEncoding ?? "postgres",
            password: components.password?.removingPercentEncoding,
            database: database.isEmpty ? nil : database,
            tls: tls
        )
    }
}

/// A `DATABASE_URL` that cannot be used, and why.
public struct DatabaseURLError: Error, CustomStringConvertible {
    let text: String
    let reason: String

    public var description: String {
        // The password never reaches a log line.
        let shown =
            (try? NSRegularExpression(pattern: ":[^:@/]*@"))
            .map { $0.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: ":***@") }
            ?? text
        return "DATABASE_URL \(shown): \(reason)"
    }
}
