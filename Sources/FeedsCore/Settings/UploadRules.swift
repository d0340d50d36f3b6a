/// The rules one kind of upload obeys (Stream's `FileUploadConfig`): which extensions and MIME
/// types are allowed or blocked, and how large a file may be.
public struct UploadRules: Sendable, Equatable, Codable {
    /// Lower case, without the leading dot; matched against the end of the file name.
    public var allowedFileExtensions: [String]
    public var blockedFileExtensions: [String]
    /// `type/subtype` or `type/*`, lower case; matched against the type sniffed from the bytes.
    public var allowedMimeTypes: [String]
    public var blockedMimeTypes: [String]
    /// Bytes; 0 means the default, `UploadRules.maximumSize`.
    public var sizeLimit: Int64

    /// The largest file any upload may be, and the default limit: 100 MB.
    public static let maximumSize: Int64 = 104_857_600

    /// Everything allowed, up to 100 MB.
    public static let open = UploadRules()

    public init(
        allowedFileExtensions: [String] = [], blockedFileExtensions: [String] = [], allowedMimeTypes: [String] = [],
        blockedMimeTypes: [String] = [], sizeLimit: Int64 = 0
    ) {
        self.allowedFileExtensions = allowedFileExtensions
        self.blockedFileExtensions = blockedFileExtensions
        self.allowedMimeTypes = allowedMimeTypes
        self.blockedMimeTypes = blockedMimeTypes
        self.sizeLimit = sizeLimit
    }

    /// The limit in force: the configured one, or the default for 0.
    public var effectiveSizeLimit: Int64 { sizeLimit == 0 ? Self.maximumSize : sizeLimit }

    /// Lists left out read as empty (as other servers may send them); the limit is required.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            allowedFileExtensions: try container.decodeIfPresent([String].self, forKey: .allowedFileExtensions) ?? [],
            blockedFileExtensions: try container.decodeIfPresent([String].self, forKey: .blockedFileExtensions) ?? [],
            allowedMimeTypes: try container.decodeIfPresent([String].self, forKey: .allowedMimeTypes) ?? [],
            blockedMimeTypes: try container.decodeIfPresent([String].self, forKey: .blockedMimeTypes) ?? [],
            sizeLimit: try container.decode(Int64.self, forKey: .sizeLimit)
        )
    }

    enum CodingKeys: String, CodingKey {
        case allowedFileExtensions = "allowed_file_extensions"
        case blockedFileExtensions = "blocked_file_extensions"
        case allowedMimeTypes = "allowed_mime_types"
        case blockedMimeTypes = "blocked_mime_types"
        case sizeLimit = "size_limit"
    }
}

extension UploadRules {
    /// Why these rules refuse a file, or nil when they accept it. A blocked entry wins over an
    /// allowed one; an empty allowed list allows everything. `rules` names the rule set in the
    /// message (`file_upload_config`).
    public func refusal(fileName: String, mimeType: String, rules: String) -> String? {
        let name = Self.comparableName(fileName)
        let type = mimeType.lowercased()
        if let blocked = blockedFileExtensions.first(where: { Self.name(name, hasExtension: $0) }) {
            return "\(fileName): the extension .\(blocked) is blocked by \(rules).blocked_file_extensions"
        }
        if let blocked = blockedMimeTypes.first(where: { Self.type(type, matches: $0) }) {
            return "\(fileName) is \(type), which \(rules).blocked_mime_types blocks (\(blocked))"
        }
        if !allowedFileExtensions.isEmpty, !allowedFileExtensions.contains(where: { Self.name(name, hasExtension: $0) }) {
            return "\(fileName): \(rules).allowed_file_extensions allows only "
                + allowedFileExtensions.map { ".\($0)" }.joined(separator: ", ")
        }
        if !allowedMimeTypes.isEmpty, !allowedMimeTypes.contains(where: { Self.type(type, matches: $0) }) {
            return "\(fileName) is \(type); \(rules).allowed_mime_types allows only "
                + allowedMimeTypes.joined(separator: ", ")
        }
        return nil
    }

    /// The name as a file system would take it: lower case, without the trailing dots and spaces
    /// that Windows drops (so `evil.exe.` counts as `.exe`).
    static func comparableName(_ fileName: String) -> String {
        var name = Substring(fileName.lowercased())
        while let last = name.last, last == "." || last.isWhitespace { name.removeLast() }
        return String(name)
    }

    /// Whether a name ends in `.extension`; extensions may have dots of their own (`tar.gz`).
    static func name(_ name: String, hasExtension fileExtension: String) -> Bool {
        name.hasSuffix("." + fileExtension)
    }

    /// Whether a sniffed type matches an entry, which may be `type/*`.
    static func type(_ type: String, matches entry: String) -> Bool {
        if entry.hasSuffix("/*") { return type.hasPrefix(entry.dropLast()) }
        return type == entry
    }
}
