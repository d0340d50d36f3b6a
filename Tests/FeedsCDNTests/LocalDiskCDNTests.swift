import FeedsCDN
import FeedsCore
import Foundation
import Testing

@Suite struct LocalDiskCDNTests {
    @Test func uploadPutsTheBytesAtTheKeyAndTheTempFileIsGone() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let bytes = Data((0..<10_000).map { UInt8($0 % 251) })
        let file = try scratch.tempFile(bytes, name: "photo.png")
        let key = ObjectKey(fileName: file.fileName)
        let progress = ProgressLog()

        let uploaded = try await scratch.cdn().upload(file, key: key) { progress.record($0) }

        #expect(uploaded == UploadedFile(key: key, size: 10_000, mimeType: "image/png"))
        #expect(progress.all == [0, 1])
        #expect(!FileManager.default.fileExists(atPath: file.url.path(percentEncoded: false)))
        let stored = scratch.root.appending(path: key.rawValue)
        #expect(try Data(contentsOf: stored) == bytes)
        // Only the object and its sidecar: no temporary names left behind.
        let directory = scratch.root.appending(path: String(key.rawValue.prefix(32)))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false))
        #expect(Set(names) == ["photo.png", ".photo.png.meta"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.temp.path(percentEncoded: false)).isEmpty)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/shm"), "needs /dev/shm: a tmpfs on Linux"))
    func tempFileOnAnotherFileSystemIsCopiedThenRemoved() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let source = URL(filePath: "/dev/shm/feeds-cdn-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: source) }
        let bytes = Data((0..<(2 << 20) + 5).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try bytes.write(to: source)
        let device = { (url: URL) in
            try FileManager.default.attributesOfItem(atPath: url.path(percentEncoded: false))[.systemNumber] as? Int
        }
        // Otherwise rename would succeed and this test would not reach the copy.
        try #require(try device(source) != device(scratch.base))
        let file = LocalFile(
            url: source, fileName: "big.bin", size: Int64(bytes.count), sha256: String(repeating: "0", count: 64),
            mimeType: "application/octet-stream")
        let key = ObjectKey(fileName: file.fileName)

        _ = try await scratch.cdn().upload(file, key: key) { _ in }

        #expect(try Data(contentsOf: scratch.root.appending(path: key.rawValue)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: source.path(percentEncoded: false)))
        let directory = scratch.root.appending(path: String(key.rawValue.prefix(32)))
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false))) == [
                "big.bin", ".big.bin.meta",
            ])
    }

    @Test func objectDescribesWhatWasStored() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cdn = scratch.cdn()
        let file = try scratch.tempFile(Data("%PDF-1.7 hello".utf8), name: "report.pdf", mimeType: "application/pdf")
        let key = ObjectKey(fileName: file.fileName)
        let before = Date().addingTimeInterval(-5)
        _ = try await cdn.upload(file, key: key) { _ in }

        let object = try #require(try cdn.object(for: key))
        #expect(object.key == key)
        #expect(object.size == 14)
        #expect(object.mimeType == "application/pdf")
        #expect(object.etag == "\"\(file.sha256)\"")
        #expect(object.modifiedAt > before && object.modifiedAt < Date().addingTimeInterval(5))
        #expect(try Data(contentsOf: URL(filePath: object.path)) == Data("%PDF-1.7 hello".utf8))
        #expect(try cdn.object(for: ObjectKey(fileName: "report.pdf")) == nil)
    }

    @Test func objectWithoutItsSidecarIsServedAsOpaqueBytes() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cdn = scratch.cdn()
        let file = try scratch.tempFile(Data("<svg/>".utf8), name: "x.svg", mimeType: "image/svg+xml")
        let key = ObjectKey(fileName: file.fileName)
        _ = try await cdn.upload(file, key: key) { _ in }
        let sidecar = scratch.root.appending(path: "\(key.rawValue.prefix(32))/.x.svg.meta")

        try Data("{not json".utf8).write(to: sidecar)
        let corrupt = try #require(try cdn.object(for: key))
        #expect(corrupt.mimeType == "application/octet-stream")
        #expect(corrupt.etag != "\"\(file.sha256)\"")
        #expect(corrupt.etag.hasPrefix("\"6-"))

        try FileManager.default.removeItem(at: sidecar)
        let missing = try #require(try cdn.object(for: key))
        #expect(missing.mimeType == "application/octet-stream")
        #expect(missing.etag == corrupt.etag)
    }

    @Test func bytesChangedBehindOurBackDoNotKeepTheOldETag() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cdn = scratch.cdn()
        let file = try scratch.tempFile(Data("abc".utf8))
        let key = ObjectKey(fileName: file.fileName)
        _ = try await cdn.upload(file, key: key) { _ in }
        try Data("abcdef".utf8).write(to: scratch.root.appending(path: key.rawValue))

        let object = try #require(try cdn.object(for: key))
        #expect(object.size == 6)
        #expect(object.etag != "\"\(file.sha256)\"")
        #expect(object.mimeType == "image/png")
    }

    @Test func deleteRemovesEverythingAndTwiceIsFine() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cdn = scratch.cdn()
        let key = ObjectKey(fileName: "a.txt")
        _ = try await cdn.upload(try scratch.tempFile(Data("a".utf8)), key: key) { _ in }
        #expect(try cdn.object(for: key) != nil)

        try await cdn.delete(key: key)
        #expect(try cdn.object(for: key) == nil)
        #expect(scratch.allPaths() == ["tmp", "cdn"])
        try await cdn.delete(key: key)
        try await cdn.delete(key: ObjectKey(fileName: "never-stored.txt"))
        #expect(scratch.allPaths() == ["tmp", "cdn"])
    }

    @Test func readURLIsSignedForTheKey() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let key = ObjectKey(fileName: "a.png")
        let expiresAt = Date(timeIntervalSince1970: 2_000_000_000)
        let url = scratch.cdn().readURL(for: key, expiresAt: expiresAt)
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(url.absoluteString.hasPrefix("http://localhost:3030/cdn/\(key.rawValue)?"))
        #expect(scratch.signer.objectKey(inURL: url.absoluteString) == key)
        let check = scratch.signer.verify(
            key: key.rawValue, expires: items.first { $0.name == "Expires" }?.value,
            signature: items.first { $0.name == "Signature" }?.value, now: expiresAt.addingTimeInterval(-1))
        #expect(check == .valid)
    }

    @Test(arguments: [
        "../../escape.txt", "..", "../", "/etc/passwd", "a/../../b", "..\\..\\win.ini", "%2e%2e%2fx",
        ".htaccess", "dir/.", "\0nul", "🙂.png", "",
    ])
    func hostileNamesStayInsideTheRoot(name: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cdn = scratch.cdn()
        let key = ObjectKey(fileName: name)
        // Two components, neither `.`, `..` nor hidden: nothing that could name another directory.
        let components = key.rawValue.split(separator: "/", omittingEmptySubsequences: false)
        #expect(components.count == 2)
        #expect(components.allSatisfy { !$0.hasPrefix(".") && !$0.contains("\\") && !$0.contains("\0") })
        _ = try await cdn.upload(try scratch.tempFile(Data("x".utf8), name: name), key: key) { _ in }

        let object = try #require(try cdn.object(for: key))
        let rootPath = scratch.root.standardizedFileURL.path(percentEncoded: false)
        #expect(object.path == rootPath + "/" + key.rawValue)
        // Nothing outside cdn/ (tmp/ is empty now), and inside it one directory with one object.
        let paths = scratch.allPaths()
        #expect(paths.allSatisfy { $0 == "tmp" || $0 == "cdn" || $0.hasPrefix("cdn/") })
        #expect(paths.filter { $0.hasPrefix("cdn/") }.count == 3)
    }

    @Test func keysThatCouldEscapeAreNeverAccepted() {
        let hex = String(repeating: "0", count: 32)
        for raw in ["\(hex)/..", "\(hex)/../x", "../\(hex)", "..", "\(hex)/.", "\(hex)//x", "/\(hex)/x", "\(hex)/a/b"] {
            #expect(ObjectKey(rawValue: raw) == nil, "\(raw)")
        }
    }

    @Test func twentyConcurrentUploadsAllLand() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cdn = scratch.cdn()
        let files = try (0..<20).map { index in
            try scratch.tempFile(Data(repeating: UInt8(index), count: 4096 + index), name: "file-\(index).bin")
        }
        let uploaded = try await withThrowingTaskGroup(of: (Int, UploadedFile).self) { group in
            for (index, file) in files.enumerated() {
                group.addTask { (index, try await cdn.upload(file, key: ObjectKey(fileName: file.fileName)) { _ in }) }
            }
            return try await group.reduce(into: [Int: UploadedFile]()) { $0[$1.0] = $1.1 }
        }

        #expect(uploaded.count == 20)
        for (index, file) in uploaded {
            let object = try #require(try cdn.object(for: file.key))
            #expect(object.size == Int64(4096 + index))
            #expect(try Data(contentsOf: URL(filePath: object.path)) == Data(repeating: UInt8(index), count: 4096 + index))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.temp.path(percentEncoded: false)).isEmpty)
    }

    @Test func retryAfterTheMoveFindsTheWorkDone() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cdn = scratch.cdn()
        let file = try scratch.tempFile(Data("once".utf8))
        let key = ObjectKey(fileName: file.fileName)
        let first = try await cdn.upload(file, key: key) { _ in }
        let second = try await cdn.upload(file, key: key) { _ in }
        #expect(first == second)
        #expect(try cdn.object(for: key)?.size == 4)
    }

    @Test func missingTempFileIsAPermanentErrorAndLeavesNothing() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cdn = scratch.cdn()
        let file = try scratch.tempFile(Data("gone".utf8))
        try FileManager.default.removeItem(at: file.url)
        let key = ObjectKey(fileName: file.fileName)

        let error = await #expect(throws: CDNError.self) { try await cdn.upload(file, key: key) { _ in } }
        #expect(error?.isTransient == false)
        #expect(try cdn.object(for: key) == nil)
        #expect(scratch.allPaths() == ["tmp", "cdn"])
    }

    @Test func oversizedFileIsRefusedBeforeAnyWork() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cdn = scratch.cdn()
        var file = try scratch.tempFile(Data("small".utf8))
        file.size = cdn.maxAttachmentSize + 1
        let progress = ProgressLog()

        let error = await #expect(throws: CDNError.self) {
            try await cdn.upload(file, key: ObjectKey(fileName: "big.bin")) { progress.record($0) }
        }
        #expect(error?.isTransient == false)
        #expect(progress.all.isEmpty)
        #expect(FileManager.default.fileExists(atPath: file.url.path(percentEncoded: false)))
        #expect(cdn.maxAttachmentSize == 104_857_600)
    }

    @Test func unwritableRootIsAPermanentError() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // A regular file where the root directory should be.
        try Data().write(to: scratch.root)
        let file = try scratch.tempFile(Data("x".utf8))

        let error = await #expect(throws: CDNError.self) {
            try await scratch.cdn().upload(file, key: ObjectKey(fileName: "x.png")) { _ in }
        }
        #expect(error?.isTransient == false)
        #expect(FileManager.default.fileExists(atPath: file.url.path(percentEncoded: false)))
    }
}
