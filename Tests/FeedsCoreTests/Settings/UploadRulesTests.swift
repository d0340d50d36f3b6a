import FeedsCore
import Testing

@Suite struct UploadRulesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var rules: UploadRules
        var fileName: String
        var mimeType: String
        /// A fragment of the refusal, or nil when the file is accepted.
        var refusedBy: String?
        var testDescription: String { "\(fileName) (\(mimeType)) → \(refusedBy ?? "accepted")" }
    }

    static let cases: [Case] = [
        // Empty lists allow everything.
        Case(rules: .open, fileName: "a.exe", mimeType: "application/x-dosexec", refusedBy: nil),
        Case(rules: .open, fileName: "noextension", mimeType: "text/plain", refusedBy: nil),
        // Blocked extensions, whatever the case, a trailing dot or space, or a dot-file.
        Case(
            rules: .init(blockedFileExtensions: ["exe"]), fileName: "setup.exe", mimeType: "text/plain",
            refusedBy: "blocked_file_extensions"),
        Case(
            rules: .init(blockedFileExtensions: ["exe"]), fileName: "SETUP.EXE", mimeType: "text/plain",
            refusedBy: "blocked_file_extensions"),
        Case(
            rules: .init(blockedFileExtensions: ["exe"]), fileName: "setup.exe. ", mimeType: "text/plain",
            refusedBy: "blocked_file_extensions"),
        Case(
            rules: .init(blockedFileExtensions: ["exe"]), fileName: ".exe", mimeType: "text/plain",
            refusedBy: "blocked_file_extensions"),
        Case(rules: .init(blockedFileExtensions: ["exe"]), fileName: "exe", mimeType: "text/plain", refusedBy: nil),
        Case(rules: .init(blockedFileExtensions: ["exe"]), fileName: "setup.exe.txt", mimeType: "text/plain", refusedBy: nil),
        Case(
            rules: .init(blockedFileExtensions: ["tar.gz"]), fileName: "x.TAR.GZ", mimeType: "application/gzip",
            refusedBy: "blocked_file_extensions"),
        Case(rules: .init(blockedFileExtensions: ["tar.gz"]), fileName: "x.gz", mimeType: "application/gzip", refusedBy: nil),
        // Allowed extensions: only those; no extension is not one of them.
        Case(rules: .init(allowedFileExtensions: ["png", "jpg"]), fileName: "a.PNG", mimeType: "image/png", refusedBy: nil),
        Case(
            rules: .init(allowedFileExtensions: ["png", "jpg"]), fileName: "a.gif", mimeType: "image/gif",
            refusedBy: "allowed_file_extensions"),
        Case(
            rules: .init(allowedFileExtensions: ["png"]), fileName: "png", mimeType: "image/png",
            refusedBy: "allowed_file_extensions"),
        // Blocked MIME types, exact and by wildcard; the sniffed type's case does not matter.
        Case(
            rules: .init(blockedMimeTypes: ["application/pdf"]), fileName: "a.txt", mimeType: "application/pdf",
            refusedBy: "blocked_mime_types"),
        Case(
            rules: .init(blockedMimeTypes: ["application/pdf"]), fileName: "a.pdf", mimeType: "APPLICATION/PDF",
            refusedBy: "blocked_mime_types"),
        Case(
            rules: .init(blockedMimeTypes: ["video/*"]), fileName: "a.mp4", mimeType: "video/mp4", refusedBy: "blocked_mime_types"
        ),
        Case(rules: .init(blockedMimeTypes: ["video/*"]), fileName: "a.mp3", mimeType: "audio/mpeg", refusedBy: nil),
        // Allowed MIME types.
        Case(rules: .init(allowedMimeTypes: ["image/png"]), fileName: "a.png", mimeType: "image/png", refusedBy: nil),
        Case(
            rules: .init(allowedMimeTypes: ["image/png"]), fileName: "a.png", mimeType: "image/jpeg",
            refusedBy: "allowed_mime_types"),
        Case(rules: .init(allowedMimeTypes: ["image/*"]), fileName: "a.webp", mimeType: "image/webp", refusedBy: nil),
        Case(
            rules: .init(allowedMimeTypes: ["image/*"]), fileName: "a.png", mimeType: "imagex/png",
            refusedBy: "allowed_mime_types"),
        // A blocked entry wins over an allowed one.
        Case(
            rules: .init(allowedFileExtensions: ["exe"], blockedFileExtensions: ["exe"]), fileName: "a.exe",
            mimeType: "text/plain", refusedBy: "blocked_file_extensions"),
        Case(
            rules: .init(allowedMimeTypes: ["image/*"], blockedMimeTypes: ["image/gif"]), fileName: "a.gif",
            mimeType: "image/gif", refusedBy: "blocked_mime_types"),
        // Both allowed lists must pass.
        Case(
            rules: .init(allowedFileExtensions: ["png"], allowedMimeTypes: ["image/png"]), fileName: "a.png",
            mimeType: "text/html", refusedBy: "allowed_mime_types"),
        Case(
            rules: .init(allowedFileExtensions: ["png"], allowedMimeTypes: ["image/png"]), fileName: "a.html",
            mimeType: "image/png", refusedBy: "allowed_file_extensions"),
    ]

    @Test(arguments: cases) func rulesDecide(_ example: Case) {
        let refusal = example.rules.refusal(fileName: example.fileName, mimeType: example.mimeType, rules: "file_upload_config")
        if let expected = example.refusedBy {
            #expect(refusal?.contains("file_upload_config.\(expected)") == true, "\(refusal ?? "accepted")")
            #expect(refusal?.contains(example.fileName) == true)
        } else {
            #expect(refusal == nil)
        }
    }

    @Test func theSizeLimitZeroMeansTheDefault() {
        #expect(UploadRules(sizeLimit: 0).effectiveSizeLimit == 104_857_600)
        #expect(UploadRules(sizeLimit: 1).effectiveSizeLimit == 1)
        #expect(UploadRules(sizeLimit: 10_485_760).effectiveSizeLimit == 10_485_760)
    }

    @Test(arguments: [
        (Int64(0), true), (1, true), (104_857_600, true), (-1, false), (104_857_601, false), (Int64.max, false),
    ])
    func sizeLimitsAreInRange(_ value: Int64, _ valid: Bool) {
        let result = Result { try UploadRules.validatedSizeLimit(value, field: "file_upload_config.size_limit") }
        switch result {
        case .success(let accepted): #expect(valid && accepted == value)
        case .failure(let error):
            #expect(!valid)
            #expect((error as? FeedsError)?.field == "file_upload_config.size_limit")
        }
    }

    @Test func extensionsAreNormalised() throws {
        let normalised = try UploadRules.normalizedExtensions([".PNG", "Jpg", " gif ", "png", "tar.gz", "c++"], field: "f")
        #expect(normalised == ["png", "jpg", "gif", "tar.gz", "c++"])
    }

    @Test(arguments: [
        "", ".", " ", "..", "../etc", "a/b", "a\\b", "..exe", "exe.", "a..b", "ex e", "é", String(repeating: "a", count: 33),
    ])
    func badExtensionsAreRefused(_ entry: String) {
        #expect {
            try UploadRules.normalizedExtensions(["png", entry], field: "image_upload_config.allowed_file_extensions")
        } throws: { error in
            (error as? FeedsError)?.kind == .input
                && (error as? FeedsError)?.field == "image_upload_config.allowed_file_extensions"
        }
    }

    @Test func mimeTypesAreNormalised() throws {
        let normalised = try UploadRules.normalizedMimeTypes(
            ["Image/PNG", "image/*", "application/vnd.ms-excel", "image/png"], field: "f")
        #expect(normalised == ["image/png", "image/*", "application/vnd.ms-excel"])
    }

    @Test(arguments: ["", "image", "image/", "/png", "image/png; charset=utf-8", "image/png/x", "*/*", "im age/png", "image/p*g"])
    func badMimeTypesAreRefused(_ entry: String) {
        #expect {
            try UploadRules.normalizedMimeTypes([entry], field: "file_upload_config.blocked_mime_types")
        } throws: { error in
            (error as? FeedsError)?.field == "file_upload_config.blocked_mime_types"
        }
    }

    @Test func longListsAreRefused() {
        let list = (0...UploadRules.maximumEntries).map { "e\($0)" }
        #expect(throws: FeedsError.self) { try UploadRules.normalizedExtensions(list, field: "f") }
    }
}
