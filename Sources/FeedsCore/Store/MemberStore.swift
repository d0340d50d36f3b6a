import Logging

/// Where feed members live.
public protocol MemberStore: Sendable {
    /// Applies `operation` with `members` to the feed's members, by the feed's owner or the server
    /// (403 otherwise, 404 for a feed that does not exist); returns what changed.
    func updateMembers(
        _ feed: FeedID, _ operation: MemberOperation, _ members: [FeedMemberInput], by principal: Principal, logger: Logger
    ) async throws -> MemberChange

    /// `user` accepts (member) or rejects their pending invite to `feed`; 409 without one.
    func answerInvite(_ feed: FeedID, user: String, accept: Bool, logger: Logger) async throws -> FeedMember

    /// A page of the feed's members (the caller checked that the reader may read the feed).
    func queryMembers(_ query: MemberQuery, logger: Logger) async throws -> MemberPage

    /// A new membership level (`change.name` required); 409 when the id is taken.
    func createLevel(_ id: String, _ change: MembershipLevelChange, logger: Logger) async throws -> MembershipLevel

    /// Changes the fields `change` gives; 404 when there is no such level.
    func updateLevel(_ id: String, _ change: MembershipLevelChange, logger: Logger) async throws -> MembershipLevel

    /// Deletes a level: its members hold none. 404 when there is no such level.
    func deleteLevel(_ id: String, logger: Logger) async throws

    func queryLevels(_ query: MembershipLevelQuery, logger: Logger) async throws -> MembershipLevelPage
}
