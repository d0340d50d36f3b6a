import NIOCore
import Testing

@testable import FeedsLoadTest

@Suite struct TestFileTests {
    let shared = ByteBuffer(bytes: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    func bytes(of file: TestFile) -> [UInt8] {
        file.chunks(shared: shared).flatMap { Array($0.readableBytesView) }
    }

    func compare(_ file: TestFile, _ received: [UInt8], chunk: Int) -> Bool {
        var comparison = TestFile.Comparison(file: file, shared: shared)
        for start in stride(from: 0, to: received.count, by: chunk) {
            comparison.feed(ByteBuffer(bytes: received[start..<min(received.count, start + chunk)]))
        }
        return comparison.matches
    }

    @Test func filesStartWithTheirTagAndHaveTheirSize() {
        let a = TestFile(tag: "run-1", size: 1000), b = TestFile(tag: "run-2", size: 1000)
        #expect(bytes(of: a).count == 1000)
        #expect(bytes(of: a) != bytes(of: b))
        #expect(bytes(of: TestFile(tag: "a-long-tag-of-many-bytes", size: 5)).count == 5)
    }

    @Test func theSameBytesMatchInAnyChunking() {
        let file = TestFile(tag: "abc", size: 3000)
        for chunk in [1, 7, 16, 1000, 5000] { #expect(compare(file, bytes(of: file), chunk: chunk)) }
    }

    @Test func aChangedByteAMissingEndOrAnExtraByteDoNotMatch() {
        let file = TestFile(tag: "abc", size: 3000)
        var changed = bytes(of: file)
        changed[2500] ^= 1
        var tagChanged = bytes(of: file)
        tagChanged[1] ^= 1
        #expect(!compare(file, changed, chunk: 512))
        #expect(!compare(file, tagChanged, chunk: 512))
        #expect(!compare(file, Array(bytes(of: file).dropLast()), chunk: 512))
        #expect(!compare(file, bytes(of: file) + [0], chunk: 512))
    }
}

@Suite struct ReplyCheckTests {
    @Test func aFeedPageIsRecognisedByItsActivitiesArray() {
        let key = Workload.activitiesKey
        #expect(Workload.contains(ByteBuffer(string: #"{"activities":[],"next":null}"#), key))
        #expect(Workload.contains(ByteBuffer(string: #"{"a":"\"activities\":","x":1,"activities":[{}]}"#), key))
        #expect(!Workload.contains(ByteBuffer(string: #"{"code":4,"message":"activities"}"#), key))
        #expect(!Workload.contains(ByteBuffer(string: #"{"activities""#), key))
    }
}
