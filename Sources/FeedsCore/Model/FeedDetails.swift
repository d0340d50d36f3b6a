/// A feed's name, description and custom data as a request sets them (GetOrCreateFeed's `data`
/// for a new feed, UpdateFeed): nil leaves a field as it is, or empty on a new feed.
public struct FeedDetails: Sendable, Hashable {
    public var name: String?
    public var description: String?
    public var custom: JSONObject?

    public init(name: String?, description: String?, custom: JSONObject?) {
        self.name = name
        self.description = description
        self.custom = custom
    }

    /// Checks the lengths Stream's spec declares, in characters as JSON Schema counts them;
    /// `field` prefixes the names in errors (`data.` on GetOrCreateFeed).
    public func checked(field: String = "") throws(FeedsError) -> Self {
        for (value, limit, name) in [(name, 255, "name"), (description, 1000, "description")] {
            if let value, value.unicodeScalars.count > limit {
                throw .input("\(field)\(name) takes at most \(limit) characters", field: field + name)
            }
        }
        return self
    }
}
