import Testing

@testable import FeedsCore

@Suite struct PrincipalTests {
    @Test func userIDIsOnlyForUserTokens() {
        #expect(Principal.server.userID == nil)
        #expect(Principal.user("alice").userID == "alice")
    }

    @Test(arguments: [
        (Principal.server, "alice", true),
        (.server, "", true),
        (.user("alice"), "alice", true),
        (.user("alice"), "bob", false),
        (.user("alice"), "Alice", false),
    ])
    func mayModify(principal: Principal, owner: String, allowed: Bool) {
        #expect(principal.mayModify(ownedBy: owner) == allowed)
    }

    @Test(arguments: [nil, "alice", "bob"] as [String?])
    func serverActsAsTheRequestedUser(requested: String?) throws {
        #expect(try Principal.server.actingUser(requested: requested) == requested)
    }

    @Test(arguments: [nil, "alice"] as [String?])
    func userActsAsItself(requested: String?) throws {
        #expect(try Principal.user("alice").actingUser(requested: requested) == "alice")
    }

    @Test func userMayNotActAsAnotherUser() {
        let error = #expect(throws: FeedsError.self) {
            try Principal.user("alice").actingUser(requested: "bob")
        }
        #expect(error?.kind == .notAllowed)
        #expect(error?.kind.status == 403)
        #expect(error?.message.contains("user_id") == true)
        #expect(error?.message.contains("bob") == true)
    }

    @Test func refusalNamesTheGivenField() {
        let error = #expect(throws: FeedsError.self) {
            try Principal.user("alice").actingUser(requested: "bob", field: "owner_id")
        }
        #expect(error?.message.contains("owner_id") == true)
    }
}
