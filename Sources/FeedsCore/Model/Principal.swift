/// Who a request acts as, from its token.
public enum Principal: Sendable, Hashable {
    /// A server-side token: may act for any user.
    case server
    /// A user token: acts only as this user.
    case user(String)

    /// The user id, for user tokens.
    public var userID: String? {
        if case .user(let id) = self { id } else { nil }
    }

    /// Whether this principal may change something owned by `ownerID`.
    public func mayModify(ownedBy ownerID: String) -> Bool {
        switch self {
        case .server: true
        case .user(let id): id == ownerID
        }
    }

    /// The user a request acts for: a user token's own id (a different `requested` id is refused),
    /// or, for the server, the id it names.
    public func actingUser(requested: String?, field: String = "user_id") throws(FeedsError) -> String? {
        switch self {
        case .server:
            if let requested, requested.utf8.count > 255 {
                throw .input("\(field) is at most 255 characters", field: field)
            }
            return requested
        case .user(let id):
            if let requested, requested != id {
                throw .notAllowed("a user token may only act as its own user (\(field) is \"\(requested)\")")
            }
            return id
        }
    }
}
