import FeedsCore
import Foundation
import Logging

/// Uploads a request's checked attachments to the CDN: at most `concurrency` uploads in flight
/// across all batches and `batchConcurrency` within one, progress per attachment, retries for
/// transient errors, results in input order, and nothing left in the CDN when a batch fails or
/// its caller goes away.
public actor AttachmentUploader {
    /// One attachment to upload.
    public struct Item: Sendable, Hashable {
        /// The caller's identity for the attachment (say, its position in the request), echoed in
        /// progress calls and results.
        public var index: Int
        /// The checked temp file.
        public var file: LocalFile
        /// Where to store it.
        public var key: ObjectKey
        /// The attachment payload as the client sent it, handed to the post-processor.
        public var payload: JSONObject

        /// An attachment to upload under `key`.
        public init(index: Int, file: LocalFile, key: ObjectKey, payload: JSONObject = [:]) {
            self.index = index
            self.file = file
            self.key = key
            self.payload = payload
        }
    }

    /// The default bound on uploads in flight across all batches (the server reads FEEDS_UPLOAD_CONCURRENCY).
    public static let defaultConcurrency = 8
    /// The default bound on uploads in flight within one batch.
    public static let defaultBatchConcurrency = 4

    /// The most uploads in flight across all batches.
    public nonisolated let concurrency: Int
    /// The most uploads in flight within one batch.
    public nonisolated let batchConcurrency: Int
    /// When and how often transient failures are retried.
    public nonisolated let retryPolicy: RetryPolicy

    private let cdn: any CDNClient
    private let slots: AsyncSemaphore
    private let postProcessor: (any UploadedAttachmentPostProcessor)?

    /// An uploader sending to `cdn`, applying `postProcessor`, when given, to every upload.
    public init(
        cdn: any CDNClient, concurrency: Int = defaultConcurrency, batchConcurrency: Int = defaultBatchConcurrency,
        retryPolicy: RetryPolicy = .default, postProcessor: (any UploadedAttachmentPostProcessor)? = nil
    ) {
        precondition(concurrency > 0 && batchConcurrency > 0, "upload concurrency must be positive")
        self.cdn = cdn
        self.concurrency = concurrency
        self.batchConcurrency = batchConcurrency
        self.retryPolicy = retryPolicy
        self.postProcessor = postProcessor
        self.slots = AsyncSemaphore(permits: concurrency)
    }

    /// Uploads `items` and returns them uploaded, in input order. The first failure stops the rest,
    /// deletes what the batch stored and rethrows (a `CDNError` stays one); cancelling the calling
    /// task does the same and throws `CancellationError`.
    public func upload(
        _ items: [Item], logger: Logger,
        progress: @escaping @Sendable (_ index: Int, _ fraction: Double) -> Void = { _, _ in }
    ) async throws -> [UploadedAttachment] {
        let job = UploadJob(
            cdn: cdn, slots: slots, retryPolicy: retryPolicy, postProcessor: postProcessor, logger: logger,
            progress: progress
        )
        var results = [UploadedAttachment?](repeating: nil, count: items.count)
        var touched: [ObjectKey] = []
        var failure: (any Error)?

        // The batch bound is the number of child tasks alive at once; the global bound is the semaphore.
        await withTaskGroup(of: UploadJob.Outcome.self) { group in
            var next = 0
            while next < min(batchConcurrency, items.count) {
                group.addTask { [next] in await job.run(items[next], at: next) }
                next += 1
            }
            for await outcome in group {
                switch outcome {
                case .uploaded(let position, let attachment):
                    results[position] = attachment
                    touched.append(attachment.uploaded.key)
                case .failed(let error, let reachedCDN):
                    if let reachedCDN { touched.append(reachedCDN) }
                    if failure == nil {
                        failure = error
                        group.cancelAll()
                    }
                }
                if failure == nil, !Task.isCancelled, next < items.count {
                    group.addTask { [next] in await job.run(items[next], at: next) }
                    next += 1
                }
            }
        }

        if failure == nil, !Task.isCancelled { return results.compactMap { $0 } }
        await delete(touched, logger: logger)
        if Task.isCancelled { throw CancellationError() }
        throw failure ?? CancellationError()
    }

    /// Deletes every object the batch may have stored. An upload cut short may still have landed,
    /// so keys that failed after reaching the CDN are deleted too; deleting a missing object is no error.
    private func delete(_ keys: [ObjectKey], logger: Logger) async {
        // This runs even when the calling task is cancelled: cancellation is only a flag that code
        // checks, and nothing here checks it; `CDNClient.delete` must not give up on it either.
        // Objects a delete misses stay `pending` in `cdn_objects`, and `feeds gc` sweeps them.
        await withTaskGroup(of: Void.self) { [cdn] group in
            for key in keys {
                group.addTask {
                    do {
                        try await cdn.delete(key: key)
                    } catch {
                        logger.warning(
                            "could not delete an object of a failed upload batch",
                            metadata: ["key": "\(key)", "error": "\(error)"]
                        )
                    }
                }
            }
        }
    }
}
