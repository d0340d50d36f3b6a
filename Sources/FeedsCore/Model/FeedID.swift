import Foundation

/// A feed's id on the wire, `group:id`: both parts letters, digits, `_` or `-`.
public struct FeedID: Sendable, Hashable, CustomStringConvertible {
    public let group: String
    public let id: String

    /// Parses and validates `group:id`; `field` names the request field for the error.
    public init(_ text: String, field: String = "feeds") throws(FeedsError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw .input("feed \"\(text)\" must have the form group:id", field: field)
        }
        try self.init(group: String(parts[0]), id: String(parts[1]), field: field)
    }

    /// Validates a group and an id given apart (as in GetOrCreateFeed's path).
    public init(group: String, id: String, field: String = "feeds") throws(FeedsError) {
        for (part, name) in [(group, "group"), (id, "id")] {
            guard !part.isEmpty, part.utf8.count <= 128, part.utf8.allSatisfy(FeedID.isAllowed) else {
                throw .input("feed \(name) \"\(part)\" must be 1–128 letters, digits, '_' or '-'", field: field)
            }
        }
        self.group = group
        self.id = id
    }

    /// `group:id`.
    public var description: String { "\(group):\(id)" }

    /// The bytes of a feed group or id (and of a reaction type): letters, digits, `_` and `-`.
    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}
