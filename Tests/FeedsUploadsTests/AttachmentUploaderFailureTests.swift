import FeedsCore
import FeedsTestSupport
import Foundation
import Logging
import Testing

@testable import FeedsUploads

@Suite struct AttachmentUploaderFailureTests {
    let logger = Logger(label: "AttachmentUploaderFailureTests")

    @Test func transientFailuresAreRetriedUntilSuccess() async throws {
        let items = UploadFixture.items(3)
        let cdn = TestCDN(.init(transientFailures: [items[0].key: 2, items[2].key: 1]))
        let uploader = AttachmentUploader(cdn: cdn, retryPolicy: UploadFixture.fastRetries)
        let results = try await uploader.upload(items, logger: logger)
        #expect(results.map(\.uploaded.key) == items.map(\.key))
        #expect(cdn.attempts == [items[0].key: 3, items[1].key: 1, items[2].key: 2])
        #expect(cdn.deleted.isEmpty)
    }

    @Test func aPersistentTransientFailureFailsAfterThreeTries() async throws {
        let items = UploadFixture.items(1)
        let cdn = TestCDN(.init(transientFailures: [items[0].key: 10]))
        let uploader = AttachmentUploader(cdn: cdn, retryPolicy: UploadFixture.fastRetries)
        let error = await #expect(throws: CDNError.self) { try await uploader.upload(items, logger: logger) }
        #expect(error?.isTransient == true)
        #expect(cdn.attempts[items[0].key] == 3)
        #expect(cdn.stored.isEmpty)
    }

    /// The slow uploads would take an hour: the batch ending at all shows they were cancelled
    /// (the time limit is a hang guard, not a measurement).
    @Test(.timeLimit(.minutes(10))) func aPermanentFailureStopsTheBatchAndDeletesWhatWasStored() async throws {
        let items = UploadFixture.items(8)
        var script = TestCDN.Script(permanentFailures: [items[2].key])
        script.delays = [items[2].key: .milliseconds(20)]
        for item in items[3...] { script.delays[item.key] = .seconds(3600) }
        let cdn = TestCDN(script)
        let uploader = AttachmentUploader(cdn: cdn, batchConcurrency: 4, retryPolicy: UploadFixture.fastRetries)

        let error = await #expect(throws: CDNError.self) { try await uploader.upload(items, logger: logger) }
        #expect(error?.isTransient == false)
        #expect(cdn.attempts[items[2].key] == 1, "a permanent error is not retried")
        #expect(cdn.attempted.isSuperset(of: [items[0].key, items[1].key]))
        #expect(cdn.attempted.count < items.count, "nothing new starts after the failure")
        #expect(Set(cdn.deleted) == cdn.attempted)
        #expect(cdn.stored.isEmpty)
    }

    @Test func aFailingPostProcessorFailsTheBatchAndDeletesItsUpload() async throws {
        let items = UploadFixture.items(3)
        let cdn = TestCDN()
        let uploader = AttachmentUploader(cdn: cdn, postProcessor: Refuser(index: 1))
        await #expect(throws: FeedsError.input("no thumbnail")) { try await uploader.upload(items, logger: logger) }
        #expect(cdn.deleted.contains(items[1].key))
        #expect(Set(cdn.deleted) == cdn.attempted)
        #expect(cdn.stored.isEmpty)
    }

    /// The in-flight uploads would take an hour: the batch ending shows they saw the cancellation.
    @Test(.timeLimit(.minutes(10))) func cancellingTheCallerStopsTheBatchAndDeletesWhatWasStored() async throws {
        let items = UploadFixture.items(8)
        var script = TestCDN.Script()
        for item in items[2...] { script.delays[item.key] = .seconds(3600) }
        let cdn = TestCDN(script)
        let uploader = AttachmentUploader(cdn: cdn, batchConcurrency: 4)

        let batch = Task { try await uploader.upload(items, logger: logger) }
        try await waitUntil { cdn.stored.count == 2 }
        batch.cancel()
        await #expect(throws: CancellationError.self) { try await batch.value }
        #expect(cdn.attempted.count < items.count)
        #expect(Set(cdn.deleted) == cdn.attempted)
        #expect(cdn.stored.isEmpty)
    }

    @Test func waitingForAGlobalSlotIsCancellable() async throws {
        let slow = UploadFixture.items(1)
        let queued = UploadFixture.items(1)
        let cdn = TestCDN(.init(delays: [slow[0].key: .seconds(10)]))
        let uploader = AttachmentUploader(cdn: cdn, concurrency: 1)

        let holder = Task { try await uploader.upload(slow, logger: logger) }
        try await waitUntil { cdn.attempts[slow[0].key] == 1 }
        let waiter = Task { try await uploader.upload(queued, logger: logger) }
        try await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(cdn.attempts[queued[0].key] == nil)
        #expect(!cdn.deleted.contains(queued[0].key), "an upload that never started needs no delete")

        holder.cancel()
        await #expect(throws: CancellationError.self) { try await holder.value }
        #expect(cdn.deleted == [slow[0].key])

        let after = try await uploader.upload(UploadFixture.items(2), logger: logger)
        #expect(after.count == 2, "both cancellations gave their slots back")
    }

    /// Polls `condition` every millisecond; two minutes is a hang guard, not a measurement.
    private func waitUntil(_ condition: @escaping @Sendable () -> Bool) async throws {
        try await eventually("the condition", every: .milliseconds(1)) { condition() }
    }
}

/// Fails on one index.
struct Refuser: UploadedAttachmentPostProcessor {
    let index: Int

    func process(_ attachment: UploadedAttachment) async throws -> JSONObject {
        if attachment.index == index { throw FeedsError.input("no thumbnail") }
        return attachment.payload
    }
}
