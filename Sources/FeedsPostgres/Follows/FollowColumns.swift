import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// A follow's own columns, read before its feeds are.
struct FollowColumns {
    static func list(alias: String) -> String {
        [
            "source_fid", "target_fid", "status", "push_preference", "follower_role", "custom::text", "created_at", "updated_at",
            "request_accepted_at", "request_rejected_at",
        ].map { "\(alias).\($0)" }.joined(separator: ", ")
    }
    static let list = list(alias: "follows")

    var source: String
    var target: String
    var status: Follow.Status
    var pushPreference: String
    var followerRole: String
    var custom: JSONObject
    var createdAt: Date
    var updatedAt: Date
    var acceptedAt: Date?
    var rejectedAt: Date?

    init(_ row: PostgresRow) throws {
        var reader = RowReader(row)
        try self.init(&reader)
    }

    init(_ reader: inout RowReader) throws {
        source = try reader.next()
        target = try reader.next()
        status = Follow.Status(rawValue: try reader.next()) ?? .pending
        pushPreference = try reader.next()
        followerRole = try reader.next()
        custom = try JSONText.object(try reader.next())
        createdAt = try reader.next()
        updatedAt = try reader.next()
        acceptedAt = try reader.next()
        rejectedAt = try reader.next()
    }

    func follow(feeds: [String: Feed]) throws -> Follow {
        guard let sourceFeed = feeds[source], let targetFeed = feeds[target] else {
            throw FeedsError(.internal, "a follow's feed vanished: \(source) → \(target)")
        }
        return Follow(
            source: sourceFeed, target: targetFeed, status: status, pushPreference: pushPreference, followerRole: followerRole,
            custom: custom, createdAt: createdAt, updatedAt: updatedAt, requestAcceptedAt: acceptedAt,
            requestRejectedAt: rejectedAt)
    }
}
