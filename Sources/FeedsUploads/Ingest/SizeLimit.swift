import FeedsCore

/// How many bytes a file may have, and the rule that says so (for the 413's message).
package struct SizeLimit: Sendable {
    package var bytes: Int64
    /// `file_upload_config.size_limit`, or the file store's own limit.
    package var rule: String

    package init(bytes: Int64, rule: String) {
        (self.bytes, self.rule) = (bytes, rule)
    }

    /// The stricter of a rule set's limit and the file store's.
    package init(_ rules: UploadRules, named name: String, storageLimit: Int64) {
        if rules.effectiveSizeLimit <= storageLimit {
            self.bytes = rules.effectiveSizeLimit
            self.rule = "\(name).size_limit"
        } else {
            self.bytes = storageLimit
            self.rule = "the file store's limit"
        }
    }
}
