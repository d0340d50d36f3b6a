import ArgumentParser

/// Sizes and durations as people type them: `10MB`, `512KB`, `7d`, `4h`.
enum SettingsText {
    /// Bytes from `10MB`, `512 KB`, `1048576` or `default` (0); KB and MB are 1024-based, so
    /// `100MB` is the 104857600-byte maximum.
    static func bytes(_ text: String, option: String) throws -> Int64 {
        let value = text.trimmingCharacters(in: .whitespaces).lowercased()
        if value == "default" { return 0 }
        let units: [(String, Int64)] = [
            ("mib", 1 << 20), ("kib", 1 << 10), ("mb", 1 << 20), ("kb", 1 << 10), ("m", 1 << 20), ("k", 1 << 10), ("b", 1),
        ]
        let (number, scale) = split(value, units: units)
        guard let amount = Double(number), amount >= 0, amount.isFinite else {
            throw ValidationError("\(option): \"\(text)\" is not a size (10MB, 512KB, 1048576, or default)")
        }
        return Int64((amount * Double(scale)).rounded())
    }

    /// Seconds from `7d`, `4h`, `90m`, `3600s`, `2w` or `3600`.
    static func seconds(_ text: String, option: String) throws -> Int {
        let value = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Int64)] = [("s", 1), ("m", 60), ("h", 3600), ("d", 86400), ("w", 604_800)]
        let (number, scale) = split(value, units: units)
        guard let amount = Int(number), amount >= 0 else {
            throw ValidationError("\(option): \"\(text)\" is not a duration (7d, 4h, 90m, 3600s)")
        }
        return amount * Int(scale)
    }

    /// A size as the table shows it.
    static func size(_ bytes: Int64) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }

    /// A duration as the table shows it.
    static func duration(_ seconds: Int) -> String {
        for (unit, length) in [("days", 86400), ("hours", 3600), ("minutes", 60)] where seconds % length == 0 {
            let count = seconds / length
            return "\(count) \(count == 1 ? String(unit.dropLast()) : unit) (\(seconds) s)"
        }
        return "\(seconds) s"
    }

    private static func split(_ value: String, units: [(String, Int64)]) -> (String, Int64) {
        for (suffix, scale) in units where value.hasSuffix(suffix) {
            return (value.dropLast(suffix.count).trimmingCharacters(in: .whitespaces), scale)
        }
        return (value, 1)
    }
}
