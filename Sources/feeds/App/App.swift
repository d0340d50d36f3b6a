import ArgumentParser
import FeedsCore
import Foundation

/// `feeds app`: the app settings of a running server, read and changed through its API.
struct App: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or change the upload rules of a running server.",
        subcommands: [Show.self, Set.self]
    )

    /// `feeds app show`
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the upload rules and the URL lifetime.")

        @OptionGroup var server: ServerOptions

        func run() async throws {
            let client = try server.client()
            print(SettingsTable.render(try await client.settings()))
        }
    }

    /// `feeds app set`
    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change upload rules; what is not given keeps its value.",
            discussion: """
                Lists are comma-separated; an empty list ('') clears one. Sizes take B, KB or MB (1024-based; \
                0 is the 100 MB default); the URL lifetime takes s, m, h, d or w (4h to 14d).
                Example: feeds app set --blocked-file-extensions exe,bat --image-allowed-mime-types image/png,image/jpeg \
                --file-size-limit 10MB --cdn-expiration 7d
                """
        )

        @Option(name: [.customLong("file-allowed-extensions"), .customLong("allowed-file-extensions")])
        var fileAllowedExtensions: String?
        @Option(name: [.customLong("file-blocked-extensions"), .customLong("blocked-file-extensions")])
        var fileBlockedExtensions: String?
        @Option(name: .customLong("file-allowed-mime-types")) var fileAllowedMimeTypes: String?
        @Option(name: .customLong("file-blocked-mime-types")) var fileBlockedMimeTypes: String?
        @Option(name: .customLong("file-size-limit")) var fileSizeLimit: String?
        @Option(name: .customLong("image-allowed-extensions")) var imageAllowedExtensions: String?
        @Option(name: .customLong("image-blocked-extensions")) var imageBlockedExtensions: String?
        @Option(name: .customLong("image-allowed-mime-types")) var imageAllowedMimeTypes: String?
        @Option(name: .customLong("image-blocked-mime-types")) var imageBlockedMimeTypes: String?
        @Option(name: .customLong("image-size-limit")) var imageSizeLimit: String?
        @Option(name: .customLong("cdn-expiration"), help: "How long handed-out URLs stay valid, e.g. 7d.")
        var cdnExpiration: String?
        @Option(
            name: .customLong("strip-image-metadata"),
            help: "on: store photos without location and identifying metadata (the default); off: as sent.")
        var stripImageMetadata: String?
        @OptionGroup var server: ServerOptions

        func run() async throws {
            let change = try self.change()
            guard change != AppSettingsChange() else { throw ValidationError("give at least one setting to change") }
            let client = try server.client()
            try await client.update(change)
            print(SettingsTable.render(try await client.settings()))
        }

        func change() throws -> AppSettingsChange {
            let file = AppSettingsChange.Rules(
                allowedFileExtensions: fileAllowedExtensions.map(Self.list),
                blockedFileExtensions: fileBlockedExtensions.map(Self.list),
                allowedMimeTypes: fileAllowedMimeTypes.map(Self.list), blockedMimeTypes: fileBlockedMimeTypes.map(Self.list),
                sizeLimit: try fileSizeLimit.map { try SettingsText.bytes($0, option: "--file-size-limit") }
            )
            let image = AppSettingsChange.Rules(
                allowedFileExtensions: imageAllowedExtensions.map(Self.list),
                blockedFileExtensions: imageBlockedExtensions.map(Self.list),
                allowedMimeTypes: imageAllowedMimeTypes.map(Self.list),
                blockedMimeTypes: imageBlockedMimeTypes.map(Self.list),
                sizeLimit: try imageSizeLimit.map { try SettingsText.bytes($0, option: "--image-size-limit") }
            )
            return AppSettingsChange(
                fileUploads: file == .init() ? nil : file, imageUploads: image == .init() ? nil : image,
                cdnExpirationSeconds: try cdnExpiration.map { try SettingsText.seconds($0, option: "--cdn-expiration") },
                stripImageMetadata: try stripImageMetadata.map { text in
                    guard let on = ["on": true, "off": false][text] else {
                        throw ValidationError("--strip-image-metadata is on or off, not \(text)")
                    }
                    return on
                }
            )
        }

        /// `exe, bat` → ["exe", "bat"]; '' → [] (clears the list). The server normalises the entries.
        static func list(_ text: String) -> [String] {
            text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }
}
