/// What a caller may do with a feed, as Stream's `own_capabilities` names it: client UIs offer the
/// post box, edit and delete buttons from this list. It names only what Feeds implements, and
/// what the handlers enforce: anyone reads; a feed's owner posts to it; users edit and delete
/// their own activities; the server does everything.
public enum FeedCapabilities {
    static let reader = ["read-activities", "read-feed", "update-own-activity", "delete-own-activity"]
    static let owner = reader + ["add-activity"]
    static let server = owner + ["update-any-activity", "delete-any-activity"]

    /// The capabilities of `principal` on a feed owned by `ownerID`, sorted.
    public static func of(_ principal: Principal, ownerID: String) -> [String] {
        switch principal {
        case .server: server.sorted()
        case .user(let id): (id == ownerID ? owner : reader).sorted()
        }
    }
}
