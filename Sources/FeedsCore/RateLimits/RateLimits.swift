/// What a rate limit counts: each operation belongs to one class, and each class has its own
/// budget per minute.
public enum RateLimitClass: String, Sendable, CaseIterable {
    /// Reads and queries.
    case read
    /// Writes that carry no file.
    case write
    /// Uploads: UploadFile, UploadImage, and multipart creates with files.
    case upload
}

/// How many requests of each class a caller may make per window, as the operator sets them. Each
/// limit counts on its own: a user token against its user's budget, a server token against the
/// server's, and every request against its client address's. Zero turns a limit off. Limits
/// count per node: behind a load balancer over N nodes a caller gets up to N times as many.
public struct RateLimits: Sendable, Hashable {
    /// One class's budgets per window.
    public struct Limit: Sendable, Hashable {
        public var perUser: Int
        public var perServer: Int
        public var perAddress: Int

        public init(perUser: Int, perServer: Int, perAddress: Int) {
            self.perUser = perUser
            self.perServer = perServer
            self.perAddress = perAddress
        }
    }

    public var read = Limit(perUser: 6_000, perServer: 120_000, perAddress: 120_000)
    public var write = Limit(perUser: 1_200, perServer: 60_000, perAddress: 60_000)
    public var upload = Limit(perUser: 300, perServer: 12_000, perAddress: 6_000)
    /// The window, in seconds, that the budgets refill in whole (Stream's is a minute).
    public var windowSeconds: Int = 60

    public init() {}

    /// No limit at all.
    public static var off: RateLimits {
        var limits = RateLimits()
        for kind in RateLimitClass.allCases { limits[kind] = Limit(perUser: 0, perServer: 0, perAddress: 0) }
        return limits
    }

    public subscript(kind: RateLimitClass) -> Limit {
        get {
            switch kind {
            case .read: read
            case .write: write
            case .upload: upload
            }
        }
        set {
            switch kind {
            case .read: read = newValue
            case .write: write = newValue
            case .upload: upload = newValue
            }
        }
    }
}
