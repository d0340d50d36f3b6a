import FeedsCore
import Testing

@Suite struct AppSettingsChangeTests {
    @Test func whatIsNotSentKeepsItsValue() throws {
        var settings = AppSettings.defaults
        settings.fileUploads = UploadRules(blockedFileExtensions: ["exe"], allowedMimeTypes: ["text/plain"], sizeLimit: 1000)
        settings.imageUploads = UploadRules(allowedMimeTypes: ["image/png"])
        let change = AppSettingsChange(fileUploads: .init(allowedFileExtensions: ["TXT"]))
        let result = try change.applied(to: settings)
        #expect(result.fileUploads.allowedFileExtensions == ["txt"])
        #expect(result.fileUploads.blockedFileExtensions == ["exe"])
        #expect(result.fileUploads.allowedMimeTypes == ["text/plain"])
        #expect(result.fileUploads.sizeLimit == 1000)
        #expect(result.imageUploads == settings.imageUploads)
        #expect(result.cdnExpirationSeconds == settings.cdnExpirationSeconds)
    }

    @Test func anEmptyListClearsOne() throws {
        var settings = AppSettings.defaults
        settings.imageUploads.blockedMimeTypes = ["image/gif"]
        let result = try AppSettingsChange(imageUploads: .init(blockedMimeTypes: [])).applied(to: settings)
        #expect(result.imageUploads.blockedMimeTypes.isEmpty)
    }

    @Test(arguments: [(14_399, false), (14_400, true), (604_800, true), (1_209_600, true), (1_209_601, false), (0, false)])
    func theURLLifetimeIsInStreamsRange(_ seconds: Int, _ valid: Bool) {
        let change = AppSettingsChange(cdnExpirationSeconds: seconds)
        if valid {
            #expect((try? change.applied(to: .defaults))?.cdnExpirationSeconds == seconds)
        } else {
            #expect { try change.validate() } throws: { ($0 as? FeedsError)?.field == "cdn_expiration_seconds" }
        }
    }

    @Test func aBadFieldAnywhereRefusesTheWholeChange() {
        let change = AppSettingsChange(
            fileUploads: .init(blockedFileExtensions: ["exe"]), imageUploads: .init(sizeLimit: 104_857_601))
        #expect { try change.validate() } throws: { ($0 as? FeedsError)?.field == "image_upload_config.size_limit" }
    }

    @Test func theImageRulesGovernImages() {
        var settings = AppSettings.defaults
        settings.imageUploads.sizeLimit = 10
        settings.fileUploads.sizeLimit = 20
        #expect(settings.rules(forImage: true).name == "image_upload_config")
        #expect(settings.rules(forImage: true).rules.sizeLimit == 10)
        #expect(settings.rules(forImage: false).name == "file_upload_config")
        #expect(settings.largestSizeLimit == 20)
    }

    @Test func theCacheOnlyMovesForward() {
        let cache = AppSettingsCache()
        var newer = AppSettings.defaults
        newer.version = 3
        newer.cdnExpirationSeconds = 14_400
        #expect(cache.offer(newer))
        var older = AppSettings.defaults
        older.version = 2
        #expect(!cache.offer(older))
        #expect(!cache.offer(newer))
        #expect(cache.current.cdnExpirationSeconds == 14_400)
    }
}
