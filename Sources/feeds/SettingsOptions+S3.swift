import ArgumentParser
import Configuration
import FeedsCDN
import Foundation

extension SettingsOptions {
    /// `FEEDS_CDN=s3` and its settings; nil for the local disk. Mistakes stop the start with what to fix.
    static func s3Configuration(_ reader: ConfigReader) throws -> S3Configuration? {
        let backend = reader.string(forKey: "feeds.cdn", default: "local").lowercased()
        switch backend {
        case "local": return nil
        case "s3": break
        default: throw ValidationError("FEEDS_CDN must be local or s3, not \(backend)")
        }
        guard let bucket = reader.string(forKey: "feeds.s3.bucket"), !bucket.isEmpty else {
            throw ValidationError("FEEDS_CDN=s3 needs FEEDS_S3_BUCKET")
        }
        var endpoint: URL?
        if let text = reader.string(forKey: "feeds.s3.endpoint"), !text.isEmpty {
            guard let url = URL(string: text) else { throw ValidationError("FEEDS_S3_ENDPOINT \(text) is not a URL") }
            endpoint = url
        }
        var pathStyle: Bool?
        if let text = reader.string(forKey: "feeds.s3.path.style")?.lowercased(), !text.isEmpty {
            switch text {
            case "1", "true", "yes", "on": pathStyle = true
            case "0", "false", "no", "off": pathStyle = false
            default: throw ValidationError("FEEDS_S3_PATH_STYLE must be true or false, not \(text)")
            }
        }
        let timeout = reader.int(forKey: "feeds.s3.timeout", default: 10)
        guard timeout > 0 else { throw ValidationError("FEEDS_S3_TIMEOUT must be a positive number of seconds") }
        let configuration = S3Configuration(
            endpoint: endpoint, bucket: bucket, region: reader.string(forKey: "feeds.s3.region", default: "us-east-1"),
            pathStyle: pathStyle,
            credentials: .init(
                accessKeyID: reader.string(forKey: "aws.access.key.id") ?? "",
                secretAccessKey: reader.string(forKey: "aws.secret.access.key", isSecret: true) ?? "",
                sessionToken: reader.string(forKey: "aws.session.token", isSecret: true).flatMap { $0.isEmpty ? nil : $0 }
            ),
            timeout: .seconds(timeout)
        )
        if let problem = configuration.problem { throw ValidationError(problem) }
        return configuration
    }
}
