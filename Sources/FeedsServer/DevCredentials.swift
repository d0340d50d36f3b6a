import Crypto
import Foundation

/// The API key and secret a server without configured ones makes once and keeps in its data
/// directory, so that tokens minted against it stay valid across restarts.
public struct DevCredentials: Codable, Sendable, Equatable {
    public var apiKey: String
    public var apiSecret: String

    enum CodingKeys: String, CodingKey {
        case apiKey = "api_key"
        case apiSecret = "api_secret"
    }

    /// Reads `credentials.json` from `directory`, writing a new random pair (mode 0600) when absent.
    public static func loadOrCreate(in directory: URL) throws -> DevCredentials {
        let file = directory.appendingPathComponent("credentials.json")
        if let data = try? Data(contentsOf: file) {
            return try JSONDecoder().decode(DevCredentials.self, from: data)
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let credentials = DevCredentials(apiKey: "dev-" + random(bytes: 8), apiSecret: random(bytes: 32))
        try JSONEncoder().encode(credentials).write(to: file, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return credentials
    }

    private static func random(bytes: Int) -> String {
        SymmetricKey(size: .init(bitCount: bytes * 8)).withUnsafeBytes { Array($0) }
            .map { String(format: "%02x", $0) }.joined()
    }
}
