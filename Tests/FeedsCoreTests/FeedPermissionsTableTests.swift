import Foundation
import Testing

@testable import FeedsCore

/// `docs/permissions.md` shows the rule's table; this holds the two to the same answers, for
/// every action, visibility and role.
@Suite struct FeedPermissionsTableTests {
    /// The documented table's cells, by action, visibility and role.
    static func documented() throws -> [String: String] {
        let doc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/permissions.md")
        let text = try String(contentsOf: doc, encoding: .utf8)
        let start = try #require(text.range(of: "<!-- permissions-table"))
        let end = try #require(text.range(of: "<!-- end permissions-table -->"))
        let rows = text[start.upperBound..<end.lowerBound].split(separator: "\n").filter { $0.hasPrefix("| ") }
        let header = try #require(rows.first).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        var cells: [String: String] = [:]
        for row in rows.dropFirst(2) {
            let columns = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            for (role, cell) in zip(header.dropFirst(2), columns.dropFirst(2)) {
                cells["\(columns[0])/\(columns[1])/\(role)"] = cell
            }
        }
        return cells
    }

    /// How the table spells what `FeedPermissions` answers.
    static func expected(_ action: FeedAction, _ role: FeedRole, _ visibility: FeedVisibility) -> String {
        guard FeedPermissions.allows(action, role, visibility) else { return "no" }
        let asks = action == .follow && role != .owner && role != .server && visibility.followStatus == .pending
        return asks ? "request" : "yes"
    }

    static func name(_ action: FeedAction) -> String { action == .manageFollowers ? "manage followers" : action.rawValue }

    @Test func theDocumentedTableIsTheRule() throws {
        let cells = try Self.documented()
        #expect(cells.count == FeedAction.allCases.count * FeedVisibility.allCases.count * FeedRole.allCases.count)
        for action in FeedAction.allCases {
            for visibility in FeedVisibility.allCases {
                for role in FeedRole.allCases {
                    let key = "\(Self.name(action))/\(visibility.rawValue)/\(role.rawValue)"
                    #expect(cells[key] == Self.expected(action, role, visibility), "\(key)")
                }
            }
        }
    }

    @Test func builtInFeedsAreCreatedOnlyByTheirUserOrTheServer() throws {
        for group in ["user", "timeline", "notification", "story", "stories", "foryou"] {
            let feed = try FeedID(group: group, id: "dave")
            #expect(FeedPermissions.mayCreate(feed, by: .user("dave")))
            #expect(FeedPermissions.mayCreate(feed, by: .server))
            #expect(!FeedPermissions.mayCreate(feed, by: .user("mallory")))
            let error = #expect(throws: FeedsError.self) { try FeedPermissions.checkCreate(feed, by: .user("mallory")) }
            #expect(error?.kind == .notAllowed)
        }
        #expect(FeedPermissions.mayCreate(try FeedID("room:lobby"), by: .user("mallory")))
    }
}

@Suite struct FeedCapabilitiesTests {
    @Test func capabilitiesAreTheTableInStreamsNames() {
        let stranger = FeedCapabilities.of(.stranger, visibility: .visible, grants: .defaults)
        #expect(stranger.contains("read-feed") && stranger.contains("add-activity-reaction") && stranger.contains("add-comment"))
        #expect(stranger.contains("follow") && !stranger.contains("add-activity") && !stranger.contains("update-feed"))
        let owner = FeedCapabilities.of(.owner, visibility: .private, grants: .defaults)
        #expect(owner.contains("add-activity") && owner.contains("update-feed") && owner.contains("update-feed-followers"))
        #expect(!owner.contains("delete-any-activity"))
        let follower = FeedCapabilities.of(.follower, visibility: .followers, grants: .defaults)
        #expect(follower.contains("read-activities") && follower.contains("add-comment") && !follower.contains("add-activity"))
        let server = FeedCapabilities.of(.server, visibility: .private, grants: .defaults)
        #expect(server.contains("delete-any-activity") && server.contains("add-activity") && server == server.sorted())
        #expect(Set(server).count == server.count)
    }
}
