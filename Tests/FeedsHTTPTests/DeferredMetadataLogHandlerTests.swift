import Logging
import Synchronization
import Testing

@testable import FeedsHTTP
@testable import FeedsServer

@Suite struct DeferredMetadataLogHandlerTests {
    final class Lines: TextOutputStream, Sendable {
        let written = Mutex<[String]>([])
        func write(_ string: String) { written.withLock { $0.append(string) } }
    }

    @Test func metadataSetOnTheLoggerIsWrittenWithEachLineAndTheLinesOwnWins() {
        let lines = Lines()
        var logger = Logger(label: "test") { label in
            DeferredMetadataLogHandler(StreamLogHandler(label: label, stream: lines, metadataProvider: nil))
        }
        logger.logLevel = .info
        logger[metadataKey: "request_id"] = "r1"
        logger[metadataKey: "principal"] = "alice"
        #expect(logger[metadataKey: "principal"] == "alice")
        logger.debug("below the level")
        logger.info("hello", metadata: ["principal": "bob", "extra": "1"])
        logger[metadataKey: "principal"] = nil
        logger.warning("again")

        let written = lines.written.withLock { $0 }
        #expect(written.count == 2)
        #expect(written[0].contains("extra=1 principal=bob request_id=r1") && written[0].hasSuffix("hello\n"))
        #expect(written[1].contains("request_id=r1") && !written[1].contains("principal"))
    }
}
