import FeedsCore
import Foundation
import Testing

@testable import FeedsCDN

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct FileSystemTests {
    @Test func crossDeviceFallbackCopiesUnderATemporaryNameThenRenames() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Bigger than the copy buffer, and not a multiple of it.
        let bytes = Data((0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let source = scratch.temp.appending(path: "in").path(percentEncoded: false)
        try bytes.write(to: URL(filePath: source))
        let key = ObjectKey(fileName: "big.bin")
        let paths = try #require(ObjectPaths(root: scratch.root.path(percentEncoded: false), key: key))
        try FileSystem.makeDirectories(paths.directory)
        let temporary = paths.temporary()

        try FileSystem.copyDurably(source, to: temporary)
        #expect(try Data(contentsOf: URL(filePath: temporary)) == bytes)
        // Never over an existing file: each attempt gets its own name.
        #expect(throws: SystemCallError.self) { try FileSystem.copyDurably(source, to: temporary) }
        try FileSystem.move(temporary, to: paths.file)
        #expect(try Data(contentsOf: URL(filePath: paths.file)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: temporary))
        #expect(paths.temporary() != paths.temporary())
    }

    @Test func errnoDecidesTransientOrPermanent() {
        let key = ObjectKey(fileName: "a.png")
        for code in [ENOSPC, EIO, EDQUOT, EMFILE] {
            #expect(SystemCallError(call: "write", errno: code).cdnError("storing", key: key).isTransient, "\(code)")
        }
        for code in [EACCES, ENOENT, EROFS, ENOTDIR, EXDEV, EISDIR] {
            #expect(!SystemCallError(call: "rename", errno: code).cdnError("storing", key: key).isTransient, "\(code)")
        }
        let message = SystemCallError(call: "write", errno: ENOSPC).cdnError("storing", key: key).message
        #expect(message.contains(key.rawValue) && message.contains("write"))
    }

    @Test func missingAndOtherKindsOfFileAreNoObject() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let directory = scratch.temp.path(percentEncoded: false)
        #expect(try FileSystem.regularFile(directory) == nil)
        #expect(try FileSystem.regularFile(directory + "/absent") == nil)
        let link = directory + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/etc/hostname")
        #expect(try FileSystem.regularFile(link) == nil)
        #expect(try FileSystem.readSmallFile(directory + "/absent", limit: 10) == nil)
    }

    @Test func objectPathsKeepEveryPartInItsDirectory() throws {
        let key = try #require(ObjectKey(rawValue: String(repeating: "f", count: 32) + "/photo.png"))
        let paths = try #require(ObjectPaths(root: "/data/cdn", key: key))
        #expect(paths.directory == "/data/cdn/" + String(repeating: "f", count: 32))
        #expect(paths.file == paths.directory + "/photo.png")
        #expect(paths.metadata == paths.directory + "/.photo.png.meta")
        #expect(paths.temporary().hasPrefix(paths.directory + "/.photo.png.tmp-"))
    }
}
