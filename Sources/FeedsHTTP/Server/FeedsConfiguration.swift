import Foundation
import Logging

/// Everything `feeds serve` needs, read once at start from the environment and flags.
public struct FeedsConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var apiKey: String
    public var apiSecret: String
    /// `DATABASE_URL`; nil starts the embedded cluster under the data directory.
    public var databaseURL: String?
    /// Where the server keeps its own files (`.feeds`): the embedded cluster, dev credentials.
    public var dataDirectory: URL
    /// The base of URLs handed out to clients.
    public var publicURL: String
    public var logLevel: Logger.Level

    public init(
        host: String = "127.0.0.1", port: Int = 3030, apiKey: String, apiSecret: String, databaseURL: String? = nil,
        dataDirectory: URL = URL(fileURLWithPath: ".feeds"), publicURL: String? = nil, logLevel: Logger.Level = .info
    ) {
        self.host = host
        self.port = port
        self.apiKey = apiKey
        self.apiSecret = apiSecret
        self.databaseURL = databaseURL
        self.dataDirectory = dataDirectory
        self.publicURL = publicURL ?? "http://\(host):\(port)"
        self.logLevel = logLevel
    }
}
