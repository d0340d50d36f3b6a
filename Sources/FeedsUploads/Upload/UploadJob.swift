import FeedsCore
import Logging

/// What one batch needs to upload one item: the CDN, the global slots, the retry policy and the
/// post-processor. Sendable, so each item's child task carries its own copy, off the uploader actor.
struct UploadJob: Sendable {
    /// How an item ended.
    enum Outcome: Sendable {
        /// Stored and post-processed; `position` is the item's place in the batch.
        case uploaded(position: Int, UploadedAttachment)
        /// Failed; `reachedCDN` is the key when an upload of it was started, so the object may exist.
        case failed(any Error, reachedCDN: ObjectKey?)
    }

    let cdn: any CDNClient
    let slots: AsyncSemaphore
    let retryPolicy: RetryPolicy
    let postProcessor: (any UploadedAttachmentPostProcessor)?
    let logger: Logger
    let progress: @Sendable (_ index: Int, _ fraction: Double) -> Void

    /// Uploads `item`, retrying transient failures, then post-processes it.
    func run(_ item: AttachmentUploader.Item, at position: Int) async -> Outcome {
        var reachedCDN = false
        let uploaded: UploadedFile
        do {
            uploaded = try await upload(item, reachedCDN: &reachedCDN)
        } catch {
            return .failed(error, reachedCDN: reachedCDN ? item.key : nil)
        }
        var attachment = UploadedAttachment(index: item.index, file: item.file, uploaded: uploaded, payload: item.payload)
        guard let postProcessor else { return .uploaded(position: position, attachment) }
        do {
            attachment.payload = try await postProcessor.process(attachment)
            return .uploaded(position: position, attachment)
        } catch {
            return .failed(error, reachedCDN: uploaded.key)
        }
    }

    private func upload(_ item: AttachmentUploader.Item, reachedCDN: inout Bool) async throws -> UploadedFile {
        var attempt = 1
        while true {
            do {
                try await slots.acquire()
                // The slot is given back before any backoff, so a waiting batch is never held up by a sleeper.
                defer { slots.release() }
                reachedCDN = true
                return try await cdn.upload(item.file, key: item.key) { [progress] fraction in
                    progress(item.index, fraction)
                }
            } catch let error where attempt < retryPolicy.attempts && retryPolicy.isRetryable(error) && !Task.isCancelled {
                let delay = retryPolicy.delay(afterAttempt: attempt)
                logger.debug(
                    "retrying a transient CDN failure",
                    metadata: ["key": "\(item.key)", "attempt": "\(attempt)", "delay": "\(delay)", "error": "\(error)"]
                )
                try await Task.sleep(for: delay)
                attempt += 1
            }
        }
    }
}
