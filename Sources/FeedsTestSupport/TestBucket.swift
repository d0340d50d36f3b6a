import FeedsCDN
import Foundation

/// Where a test server keeps uploads: the local disk, or the S3-compatible store that
/// `make test` starts. The pipeline suites run once with each.
public enum Backend: String, CaseIterable, Sendable, CustomStringConvertible {
    case local, s3
    public var description: String { rawValue }
}

/// A bucket of its own for one test, on the store `scripts/with-test-s3.sh` starts
/// (`FEEDS_TEST_S3_*`), so that the test sees exactly what it stored. Without that store the
/// tests fail with a message saying how to run them; they never skip.
public struct TestBucket: Sendable {
    public struct Unavailable: Error, CustomStringConvertible {
        let variable: String
        public var description: String {
            "\(variable) is not set: run the tests with `make test`, which starts an S3-compatible test server "
                + "(or wrap the command in scripts/with-test-s3.sh)"
        }
    }

    public let client: S3Client
    public var configuration: S3Configuration { client.configuration }

    /// The test store's settings for `bucket`, with the credentials the script created.
    public static func configuration(bucket: String) throws -> S3Configuration {
        let environment = ProcessInfo.processInfo.environment
        func value(_ name: String) throws -> String {
            guard let value = environment[name], !value.isEmpty else { throw Unavailable(variable: name) }
            return value
        }
        guard let endpoint = URL(string: try value("FEEDS_TEST_S3_ENDPOINT")) else {
            throw Unavailable(variable: "FEEDS_TEST_S3_ENDPOINT")
        }
        return S3Configuration(
            endpoint: endpoint, bucket: bucket, region: environment["FEEDS_TEST_S3_REGION"] ?? "us-east-1",
            credentials: .init(
                accessKeyID: try value("FEEDS_TEST_S3_ACCESS_KEY_ID"),
                secretAccessKey: try value("FEEDS_TEST_S3_SECRET_ACCESS_KEY")),
            // A hang guard, not a deadline: the test store answers slowly on a busy machine.
            timeout: .seconds(120)
        )
    }

    /// The bucket the script created, shared by every test.
    public static func shared() throws -> TestBucket {
        guard let name = ProcessInfo.processInfo.environment["FEEDS_TEST_S3_BUCKET"], !name.isEmpty else {
            throw Unavailable(variable: "FEEDS_TEST_S3_BUCKET")
        }
        return TestBucket(client: S3Client(configuration: try configuration(bucket: name)))
    }

    /// Creates an empty bucket with a fresh name.
    public static func create() async throws -> TestBucket {
        let name = "feeds-test-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(20).lowercased()
        let bucket = TestBucket(client: S3Client(configuration: try configuration(bucket: name)))
        try bucket.expect(200, try await bucket.client.send(.PUT), "creating bucket \(name)")
        return bucket
    }

    /// Every key in the bucket (the tests store a handful).
    public func keys() async throws -> [String] {
        let response = try await client.send(.GET, query: "list-type=2")
        try expect(200, response, "listing \(configuration.bucket)")
        return response.body.components(separatedBy: "<Key>").dropFirst()
            .compactMap { $0.components(separatedBy: "</Key>").first }
    }

    /// Deletes every object, then the bucket.
    public func destroy() async throws {
        for key in try await keys() {
            try expect(204, try await client.send(.DELETE, key: key), "deleting \(key)")
        }
        try expect(204, try await client.send(.DELETE), "deleting bucket \(configuration.bucket)")
    }

    private func expect(_ status: Int, _ response: S3Client.Response, _ action: String) throws {
        guard response.status == status || (status == 204 && response.status == 200) else {
            throw StoreRefused(description: "\(action): \(client.error(response).explanation(configuration))")
        }
    }

    struct StoreRefused: Error, CustomStringConvertible {
        let description: String
    }
}
