import FeedsCore
import Foundation
import Logging
import PostgresNIO

extension PostgresActivityStore {
    public func queryActivities(_ query: ActivityQuery, logger: Logger) async throws -> ActivityPage {
        let built = try Self.sql(for: query)
        var decoded: [ActivityRow.Decoded] = []
        if let shape = preparedShapes.first(where: { $0.sql == built.sql }) {
            decoded = try await shape.rows(of: built, on: preparedReads, logger: logger)
        } else {
            for try await row in try await reads.query(built, logger: logger) { decoded.append(try ActivityRow.decode(row)) }
        }
        return try await enriched(Self.page(decoded, query), query, logger: logger) {
            try await reads.query($0, logger: logger)
        }
    }

    /// The same read on `connection`: after a write on it, the read is also the proof that the
    /// write committed (see `PostgresClient.committed`), one round trip instead of two.
    func queryActivities(_ query: ActivityQuery, on connection: PostgresConnection, logger: Logger) async throws -> ActivityPage {
        let built = try Self.sql(for: query)
        var decoded: [ActivityRow.Decoded] = []
        if let shape = preparedShapes.first(where: { $0.sql == built.sql }) {
            decoded = try await shape.rows(of: built, on: connection, logger: logger)
        } else {
            for try await row in try await connection.query(built, logger: logger) { decoded.append(try ActivityRow.decode(row)) }
        }
        return try await enriched(Self.page(decoded, query), query, logger: logger) {
            try await connection.query($0, logger: logger)
        }
    }

    /// What the page's activities carry beside their rows, each kind in one read for the whole
    /// page and none when no activity has any: the polls, as the query's reader sees them; the
    /// users they mention; and the activities shares share, as that reader may read them
    /// (those carry no parent of their own). A preview carries none of these.
    func enriched(
        _ page: ActivityPage, _ query: ActivityQuery, logger: Logger, _ run: (PostgresQuery) async throws -> PostgresRowSequence
    ) async throws -> ActivityPage {
        var page = page
        let shown = page.activities.indices.filter { !page.activities[$0].preview }
        let pollIDs = shown.compactMap { page.activities[$0].pollID }
        if !pollIDs.isEmpty {
            let polls = try await PostgresPollStore.polls(
                pollIDs, viewer: query.viewer, reader: query.ownFieldsOf ?? query.viewer.userID, logger: logger, run)
            for index in shown { page.activities[index].poll = page.activities[index].pollID.flatMap { polls[$0] } }
        }
        let mentioned = Set(shown.flatMap { page.activities[$0].mentionedUserIDs })
        if !mentioned.isEmpty {
            let users = try await UserRow.users(
                run("SELECT \(unescaped: UserRow.columns) FROM users WHERE id = ANY(\(Array(mentioned)))"))
            let byID = Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for index in shown {
                page.activities[index].mentionedUsers = page.activities[index].mentionedUserIDs.compactMap { byID[$0] }
            }
        }
        let parentIDs = Set(shown.compactMap { page.activities[$0].parentID })
        if query.embedsParents, !parentIDs.isEmpty {
            var read = ActivityQuery(viewer: query.viewer, limit: parentIDs.count)
            (read.ids, read.ownFieldsOf, read.embedsParents) = (Array(parentIDs), query.ownFieldsOf, false)
            read.leavesOutBlocked = query.leavesOutBlocked
            var decoded: [ActivityRow.Decoded] = []
            for try await row in try await run(try Self.sql(for: read)) { decoded.append(try ActivityRow.decode(row)) }
            let parents = try await enriched(Self.page(decoded, read), read, logger: logger, run).activities
            let byID = Dictionary(parents.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for index in shown { page.activities[index].parent = page.activities[index].parentID.flatMap { byID[$0] } }
        }
        return page
    }

    private static func page(_ rows: [ActivityRow.Decoded], _ query: ActivityQuery) -> ActivityPage {
        var decoded = rows
        let hasMore = decoded.count > query.limit
        if hasMore { decoded.removeLast() }
        if query.cursor?.direction == .newer { decoded.reverse() }

        let activities = decoded.map(\.activity)
        guard let first = decoded.first, let last = decoded.last else {
            return ActivityPage(activities: [], next: nil, prev: nil)
        }
        if query.sort != .newestFirst {
            // Forward only, from the last one's place in the sort.
            let value = query.sort.field.value(of: last.activity).map(Double.init)
            let next = ActivityCursor(
                micros: last.micros, id: last.activity.id, direction: .older, score: value ?? 0, sort: query.sort.token)
            return ActivityPage(activities: activities, next: hasMore ? next : nil, prev: nil)
        }
        // Past a cursor, the side we came from always has activities; the far side has them when the page overflowed.
        let moreOlder = query.cursor?.direction == .newer || hasMore && query.cursor?.direction != .newer
        let moreNewer = query.cursor?.direction == .older || hasMore && query.cursor?.direction == .newer
        return ActivityPage(
            activities: activities,
            next: moreOlder ? ActivityCursor(micros: last.micros, id: last.activity.id, direction: .older) : nil,
            prev: moreNewer ? ActivityCursor(micros: first.micros, id: first.activity.id, direction: .newer) : nil
        )
    }
}
