import FeedsCore
import Foundation
import Logging
import Synchronization
import Testing

@testable import FeedsUploads

@Suite struct AttachmentUploaderTests {
    let logger = Logger(label: "AttachmentUploaderTests")

    @Test func emptyBatchUploadsNothing() async throws {
        let cdn = TestCDN()
        let results = try await AttachmentUploader(cdn: cdn).upload([], logger: logger)
        #expect(results.isEmpty)
        #expect(cdn.attempts.isEmpty)
    }

    @Test func resultsKeepInputOrderUnderRandomDelays() async throws {
        let cdn = TestCDN(.init(delay: .zero ... .milliseconds(8)))
        let items = UploadFixture.items(16)
        let results = try await AttachmentUploader(cdn: cdn).upload(items, logger: logger)
        #expect(results.map(\.index) == items.map(\.index))
        #expect(results.map(\.uploaded.key) == items.map(\.key))
        #expect(results.map(\.payload) == items.map(\.payload))
        #expect(cdn.stored == Set(items.map(\.key)))
        #expect(cdn.deleted.isEmpty)
    }

    @Test func oneBatchNeverExceedsItsBound() async throws {
        let cdn = TestCDN(.init(delay: .milliseconds(2) ... .milliseconds(6)))
        let uploader = AttachmentUploader(cdn: cdn, concurrency: 8, batchConcurrency: 3)
        let results = try await uploader.upload(UploadFixture.items(12), logger: logger)
        #expect(results.count == 12)
        #expect(cdn.peakInFlight == 3)
    }

    @Test func concurrentBatchesNeverExceedTheGlobalBound() async throws {
        let cdn = TestCDN(.init(delay: .milliseconds(2) ... .milliseconds(8)))
        let uploader = AttachmentUploader(cdn: cdn, concurrency: 3, batchConcurrency: 4)
        let batches = (0..<4).map { _ in UploadFixture.items(6) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for batch in batches {
                group.addTask {
                    let results = try await uploader.upload(batch, logger: logger)
                    #expect(results.map(\.uploaded.key) == batch.map(\.key))
                }
            }
            try await group.waitForAll()
        }
        #expect(cdn.peakInFlight == 3)
        #expect(cdn.stored.count == 24)
    }

    @Test func progressIsReportedPerIndexUpToOne() async throws {
        let cdn = TestCDN(.init(delay: .zero ... .milliseconds(3)))
        let reports = Mutex<[Int: [Double]]>([:])
        let items = UploadFixture.items(5)
        _ = try await AttachmentUploader(cdn: cdn).upload(items, logger: logger) { index, fraction in
            reports.withLock { $0[index, default: []].append(fraction) }
        }
        let byIndex = reports.withLock { $0 }
        #expect(Set(byIndex.keys) == Set(items.map(\.index)))
        for (index, fractions) in byIndex {
            #expect(fractions.last == 1.0, "index \(index)")
            #expect(fractions == fractions.sorted(), "index \(index)")
            #expect(fractions.allSatisfy { (0...1).contains($0) }, "index \(index)")
        }
    }

    @Test func postProcessorRewritesEachPayload() async throws {
        let cdn = TestCDN(.init(delay: .zero ... .milliseconds(3)))
        let uploader = AttachmentUploader(cdn: cdn, postProcessor: Titler())
        let items = UploadFixture.items(4)
        let results = try await uploader.upload(items, logger: logger)
        for (item, result) in zip(items, results) {
            #expect(result.payload["title"] == .string(item.file.fileName))
            #expect(result.payload["thumb_url"] == .string("thumb/\(item.key)"))
            #expect(result.payload["type"] == .string("image"))
            #expect(result.payload["n"] == .number(Double(item.index)))
        }
    }

    @Test func defaultsMatchTheIssue() {
        let uploader = AttachmentUploader(cdn: TestCDN())
        #expect(uploader.concurrency == 8)
        #expect(uploader.batchConcurrency == 4)
        #expect(uploader.retryPolicy.attempts == 3)
    }
}

/// Adds a title and a thumbnail to every payload, keeping what was there.
struct Titler: UploadedAttachmentPostProcessor {
    func process(_ attachment: UploadedAttachment) async throws -> JSONObject {
        var payload = attachment.payload
        payload["title"] = .string(attachment.file.fileName)
        payload["thumb_url"] = .string("thumb/\(attachment.uploaded.key)")
        return payload
    }
}
