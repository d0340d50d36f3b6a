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
        return try await withPolls(Self.page(decoded, query), query, logger: logger) {
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
        return try await withPolls(Self.page(decoded, query), query, logger: logger) {
            try await connection.query($0, logger: logger)
        }
    }

    /// The polls the page's activities carry, as the query's reader sees them: one read for all
    /// of them, none when no activity has one.
    func withPolls(
        _ page: ActivityPage, _ query: ActivityQuery, logger: Logger, _ run: (PostgresQuery) async throws -> PostgresRowSequence
    ) async throws -> ActivityPage {
        let ids = page.activities.compactMap(\.pollID)
        guard !ids.isEmpty else { return page }
        let polls = try await PostgresPollStore.polls(
            ids, viewer: query.viewer, reader: query.ownFieldsOf ?? query.viewer.userID, logger: logger, run)
        var page = page
        for index in page.activities.indices {
            if let id = page.activities[index].pollID { page.activities[index].poll = polls[id] }
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
