import FeedsCore
import Logging
import PostgresNIO

/// `own_follows`, `own_followings` and `own_membership`: what feeds are to the user reading them.
/// Each is one statement for all the feeds read, starting from the reader's own feeds
/// (`feeds_created_by_idx`) and the follows' primary key, so a feed with 100,000 followers costs no
/// more than one with none.
extension PostgresActivityStore {
    public func ownData(of feeds: [Feed], for user: String, followings: Bool, logger: Logger) async throws
        -> [FeedID: FeedOwnData]
    {
        guard !feeds.isEmpty else { return [:] }
        let fids = feeds.map(\.id.description)
        // One feed (every feed page): a prepared probe first, as most readers neither follow nor
        // belong to the feed they read; the full reads only for what it finds.
        var (anyFollow, anyMembership) = (true, true)
        if feeds.count == 1 {
            for try await found in try await preparedReads.execute(OwnDataProbe(fid: fids[0], user: user), logger: logger) {
                (anyFollow, anyMembership) = found
            }
        }
        async let follows =
            anyFollow ? follows(try Self.ownFollowsSQL(of: fids, by: user), preparedAs: [OwnFollows.self], logger: logger) : []
        async let memberships = anyMembership ? memberships(of: fids, user: user, logger: logger) : []
        let followedBack =
            followings
            ? try await self.follows(try Self.ownFollowingsSQL(of: feeds, by: user), preparedAs: [], logger: logger) : nil
        var own: [FeedID: FeedOwnData] = [:]
        for feed in feeds { own[feed.id] = FeedOwnData(followings: followings ? [] : nil) }
        for (_, follow) in try await follows { own[follow.target.id]?.follows.append(follow) }
        let byText = Dictionary(feeds.map { ($0.id.description, $0.id) }, uniquingKeysWith: { first, _ in first })
        for (fid, follow) in followedBack ?? [] {
            if let id = byText[fid] { own[id]?.followings?.append(follow) }
        }
        for member in try await memberships { own[member.feed]?.membership = member }
        return own
    }

    /// The follows from `user`'s feeds to each of `fids`, keyed by the followed feed: a primary-key
    /// probe per pair of theirs and ours. (As a filter on the user's follows, the planner, expecting
    /// a handful, walked all 1,000 of a reader's follows for every page.)
    static func ownFollowsSQL(of fids: [String], by user: String) throws -> PostgresQuery {
        var bind = SQLBinds()
        let sql = followsSQL(
            from: """
                FROM (SELECT fid FROM feeds WHERE created_by = \(try bind(user))) mine
                CROSS JOIN unnest(\(try bind(fids))::text[]) AS x(fid)
                CROSS JOIN LATERAL (SELECT * FROM follows w WHERE w.source_fid = mine.fid AND w.target_fid = x.fid LIMIT 1) w
                """,
            key: "w.target_fid")
        return bind.query(sql)  // after the binds: `bind.query(…)` would take `bind` before its argument binds more
    }

    /// Up to `FeedOwnData.maxFollowings` follows from each feed's owner's feeds to `user`'s, keyed
    /// by the feed.
    static func ownFollowingsSQL(of feeds: [Feed], by user: String) throws -> PostgresQuery {
        var bind = SQLBinds()
        let theirs = "SELECT fid FROM feeds WHERE created_by = \(try bind(user))"
        let sql = followsSQL(
            from: """
                FROM unnest(\(try bind(feeds.map(\.id.description)))::text[], \(try bind(feeds.map(\.createdBy.id)))::text[])
                    AS x(fid, owner)
                CROSS JOIN LATERAL (
                    SELECT w.* FROM follows w
                    WHERE w.source_fid IN (SELECT fid FROM feeds WHERE created_by = x.owner) AND w.target_fid IN (\(theirs))
                    ORDER BY w.created_at DESC LIMIT \(FeedOwnData.maxFollowings)) w
                """, key: "x.fid")
        return bind.query(sql)
    }

    /// Follows with both their feeds, newest first, from `from` (a FROM clause yielding `w`, the
    /// follows), each with the text of `key`.
    private static func followsSQL(from: String, key: String) -> String {
        """
        SELECT \(key), \(FollowColumns.list(alias: "w")),
            \(FeedRow.columns(feed: "s", user: "su")), \(FeedRow.columns(feed: "t", user: "tu"))
        \(from)
        JOIN feeds s ON s.fid = w.source_fid JOIN feeds t ON t.fid = w.target_fid
        JOIN users su ON su.id = s.created_by JOIN users tu ON tu.id = t.created_by
        ORDER BY w.created_at DESC, w.source_fid
        """
    }

    private func follows(_ query: PostgresQuery, preparedAs known: [any PreparedRead.Type], logger: Logger) async throws
        -> [(String, Follow)]
    {
        var follows: [(String, Follow)] = []
        for row in try await rows(of: query, preparedAs: known, logger: logger) {
            var reader = RowReader(row)
            let key: String = try reader.next()
            let columns = try FollowColumns(&reader)
            let source = try FeedRow.feed(&reader), target = try FeedRow.feed(&reader)
            follows.append((key, try columns.follow(feeds: [columns.source: source, columns.target: target])))
        }
        return follows
    }

    /// `user`'s memberships of each of `fids`.
    static func ownMembershipsSQL(of fids: [String], user: String) -> PostgresQuery {
        """
        SELECT m.fid, \(unescaped: PostgresMemberStore.columns) FROM feed_members m JOIN users u ON u.id = m.user_id
        WHERE m.fid = ANY(\(fids)) AND m.user_id = \(user)
        """
    }

    private func memberships(of fids: [String], user: String, logger: Logger) async throws -> [FeedMember] {
        let query = Self.ownMembershipsSQL(of: fids, user: user)
        var members: [FeedMember] = []
        for row in try await rows(of: query, preparedAs: [OwnMemberships.self], logger: logger) {
            var columns = RowReader(row)
            let fid: String = try columns.next()
            members.append(try PostgresMemberStore.member(&columns, feed: try FeedID(fid)))
        }
        return members
    }
}

/// `ownFollowsSQL`, prepared: every feed page with follows listed runs it.
enum OwnFollows: PreparedRead {
    static let name = "OwnFollows"
    static let sql = try! PostgresActivityStore.ownFollowsSQL(of: ["-"], by: "-").sql  // a fixed, valid sample
}

/// `ownMembershipsSQL`, prepared, as `OwnFollows` is.
enum OwnMemberships: PreparedRead {
    static let name = "OwnMemberships"
    static let sql = PostgresActivityStore.ownMembershipsSQL(of: ["-"], user: "-").sql
}

/// Whether `user` follows `fid` from a feed of theirs (any status) and whether they have a
/// membership of it: prepared, and planned once per connection.
struct OwnDataProbe: PostgresPreparedStatement {
    typealias Row = (Bool, Bool)
    static let name = "OwnDataProbe"
    static let sql = """
        SELECT EXISTS (SELECT 1 FROM follows w WHERE w.target_fid = $1 AND w.source_fid IN (SELECT fid FROM feeds WHERE created_by = $2)),
            EXISTS (SELECT 1 FROM feed_members m WHERE m.fid = $1 AND m.user_id = $2)
        """

    let fid: String
    let user: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(fid)
        bindings.append(user)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> (Bool, Bool) {
        try row.decode((Bool, Bool).self)
    }
}
