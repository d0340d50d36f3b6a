import Dispatch

/// Runs blocking file-system work on its own threads, so that copying or flushing a 100 MB file
/// never holds one of the few threads of Swift's cooperative pool.
public enum BlockingIO {
    private static let queue = DispatchQueue(label: "feeds.cdn.blocking-io", attributes: .concurrent)

    public static func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Swift.Result { try work() }) }
        }
    }
}
