import ArgumentParser
import Configuration
import FeedsCore
import FeedsHTTP

extension SettingsOptions {
    /// `FEEDS_RATE_LIMIT_<CLASS>_<CALLER>` (classes READ, WRITE, UPLOAD; callers USER, SERVER,
    /// ADDRESS): requests per minute, 0 for none; `FEEDS_RATE_LIMITS=off` turns all off.
    static func rateLimits(_ reader: ConfigReader) throws -> RateLimits {
        switch reader.string(forKey: "feeds.rate.limits", default: "on").lowercased() {
        case "off": return .off
        case "on": break
        case let other: throw ValidationError("FEEDS_RATE_LIMITS must be on or off, not \(other)")
        }
        var limits = RateLimits()
        for kind in RateLimitClass.allCases {
            for (caller, keyPath) in [
                ("user", \RateLimits.Limit.perUser), ("server", \.perServer), ("address", \.perAddress),
            ] {
                let key = "feeds.rate.limit.\(kind.rawValue).\(caller)"
                let value = reader.int(forKey: ConfigKey(key), default: limits[kind][keyPath: keyPath])
                guard value >= 0 else {
                    throw ValidationError("FEEDS_RATE_LIMIT_\(kind.rawValue.uppercased())_\(caller.uppercased()) must be 0 or more")
                }
                limits[kind][keyPath: keyPath] = value
            }
        }
        return limits
    }

    /// `FEEDS_TRUSTED_PROXIES`: addresses or CIDR ranges, separated by commas.
    static func trustedProxies(_ reader: ConfigReader) throws -> [String] {
        let entries = reader.string(forKey: "feeds.trusted.proxies", default: "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        do {
            _ = try TrustedProxies(entries)
        } catch {
            throw ValidationError("FEEDS_TRUSTED_PROXIES: \(error)")
        }
        return entries
    }
}
