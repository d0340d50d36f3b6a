import FeedsCore
import Foundation

/// The upload rules form as typed: one text per setting, named as `PATCH /app` names them
/// (`file_upload_config.blocked_file_extensions`), so an error's field is the input at fault.
package struct RulesForm: Sendable {
    package static let configs = ["file_upload_config", "image_upload_config"]
    package static let lists = ["allowed_file_extensions", "blocked_file_extensions", "allowed_mime_types", "blocked_mime_types"]
    package static let expiration = "cdn_expiration_seconds"
    /// `on` or `off`.
    package static let strip = "strip_image_metadata"
    /// Every field of the form but the version.
    package static let fields =
        configs.flatMap { config in (lists + ["size_limit"]).map { "\(config).\($0)" } } + [expiration, strip]

    package var values: [String: String]
    /// The settings version the form was filled from; saving over a newer one is refused.
    package var version: Int64

    /// The form filled with the settings in force.
    package init(_ settings: AppSettings) {
        values = [:]
        for image in [false, true] {
            let (rules, config) = settings.rules(forImage: image)
            values["\(config).allowed_file_extensions"] = rules.allowedFileExtensions.joined(separator: ", ")
            values["\(config).blocked_file_extensions"] = rules.blockedFileExtensions.joined(separator: ", ")
            values["\(config).allowed_mime_types"] = rules.allowedMimeTypes.joined(separator: ", ")
            values["\(config).blocked_mime_types"] = rules.blockedMimeTypes.joined(separator: ", ")
            values["\(config).size_limit"] = String(rules.sizeLimit)
        }
        values[Self.expiration] = String(settings.cdnExpirationSeconds)
        values[Self.strip] = settings.stripImageMetadata ? "on" : "off"
        version = settings.version
    }

    /// The form as posted: every field must be there, once.
    package init(_ form: FormFields) throws(FeedsError) {
        values = [:]
        for field in Self.fields { values[field] = try form.required(field) }
        guard ["on", "off"].contains(values[Self.strip]) else {
            throw FeedsError.input("\(Self.strip) is on or off", field: Self.strip)
        }
        guard let version = Int64(try form.required("version")) else {
            throw FeedsError.input("the field version is not a number", field: "version")
        }
        self.version = version
    }

    /// The change the form asks for, every setting given; the API's own validation judges it.
    package func change() -> AppSettingsChange {
        func rules(_ config: String) -> AppSettingsChange.Rules {
            .init(
                allowedFileExtensions: Self.entries(values["\(config).allowed_file_extensions"]),
                blockedFileExtensions: Self.entries(values["\(config).blocked_file_extensions"]),
                allowedMimeTypes: Self.entries(values["\(config).allowed_mime_types"]),
                blockedMimeTypes: Self.entries(values["\(config).blocked_mime_types"]),
                sizeLimit: Self.number(values["\(config).size_limit"]))
        }
        return AppSettingsChange(
            fileUploads: rules("file_upload_config"), imageUploads: rules("image_upload_config"),
            cdnExpirationSeconds: Self.number(values[Self.expiration]).map { Int(clamping: $0) },
            stripImageMetadata: values[Self.strip] == "on")
    }

    /// A list typed with commas, spaces or new lines between entries.
    package static func entries(_ text: String?) -> [String] {
        (text ?? "").split { $0 == "," || $0.isWhitespace }.map(String.init)
    }

    /// What is not a whole number counts as -1, out of every range: the API's own message for
    /// the field then says what is allowed.
    package static func number(_ text: String?) -> Int64? {
        Int64((text ?? "").trimmingCharacters(in: .whitespaces)) ?? -1
    }
}
