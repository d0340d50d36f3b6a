import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// ExportFeedUserData's and ExportUsers' tasks: everything each user has in Feeds, as the rows
/// are stored, read in one snapshot a page at a time and written to a JSON file, which `publish`
/// stores as an object of theirs (their erasure deletes it too) and answers its signed URL for;
/// the task's `result.url`. Their files are listed with fresh signed URLs.
public struct UserExporter: TaskHandler {
    public static let kinds = ["export-feed-user-data", "export-users"]

    let client: PostgresClient
    /// Where the file is written meanwhile.
    let directory: URL
    /// Stores the file (its name, its owner or nil for several users) and answers its signed URL.
    let publish: @Sendable (URL, String, String?) async throws -> String
    /// A fresh signed URL for one of their objects.
    let sign: @Sendable (String) -> String

    public init(
        client: PostgresClient, directory: URL, publish: @escaping @Sendable (URL, String, String?) async throws -> String,
        sign: @escaping @Sendable (String) -> String
    ) {
        (self.client, self.directory, self.publish, self.sign) = (client, directory, publish, sign)
    }

    /// A big export is one step: a snapshot read, written once.
    public var stepDeadline: Duration? { .seconds(600) }

    /// What is theirs, table by table: the rows that name them, in a stable order.
    static let sections: [(name: String, table: String, predicate: String)] = [
        ("user", "users", "id = $1"),
        ("feeds", "feeds", "created_by = $1"),
        ("activities", "activities", "user_id = $1"),
        ("comments", "comments", "user_id = $1"),
        ("activity_reactions", "activity_reactions", "user_id = $1"),
        ("comment_reactions", "comment_reactions", "user_id = $1"),
        ("bookmarks", "bookmarks", "user_id = $1"),
        ("bookmark_folders", "bookmark_folders", "user_id = $1"),
        ("follows", "follows", "source_fid IN (SELECT fid FROM feeds WHERE created_by = $1)"),
        ("followers", "follows", "target_fid IN (SELECT fid FROM feeds WHERE created_by = $1)"),
        ("memberships", "feed_members", "user_id = $1"),
        ("pins", "activity_pins", "user_id = $1"),
        ("polls", "polls", "created_by = $1"),
        ("poll_votes", "poll_votes", "user_id = $1"),
        ("feedback", "activity_feedback", "user_id = $1"),
        ("stories_watched", "watched_activities", "user_id = $1"),
        ("notifications", "notifications", "feed IN (SELECT fid FROM feeds WHERE created_by = $1)"),
        ("blocks", "user_blocks", "user_id = $1"),
        ("devices", "devices", "user_id = $1"),
        ("files", "cdn_objects", "owner_id = $1 AND state NOT IN ('deleting', 'deleted')"),
    ]

    static let page = 1000

    public func step(_ task: inout PostgresTasks.Claimed, logger: Logger) async throws -> Bool {
        let input = try JSONDecoder().decode(UserExport.self, from: Data(task.input.utf8))
        let file = directory.appendingPathComponent("export-\(task.id).json")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let out = try FileHandle(forWritingTo: file)
        var rows = 0
        do {
            defer { try? out.close() }
            try out.write(contentsOf: Data(#"{"exported_at":"\#(ISO8601DateFormatter().string(from: Date()))","users":["#.utf8))
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
                for (index, user) in input.userIDs.enumerated() {
                    try out.write(contentsOf: Data((index == 0 ? "" : ",").utf8))
                    rows += try await write(user, to: out, on: connection, logger: logger)
                }
            }
            try out.write(contentsOf: Data("]}".utf8))
        }
        let name = input.userIDs.count == 1 ? "feeds-export-\(input.userIDs[0]).json" : "feeds-export-users.json"
        let url = try await publish(file, name, input.userIDs.count == 1 ? input.userIDs[0] : nil)
        task.result["url"] = .string(url)
        task.result["rows"] = .number(Double(rows))
        task.result["users_done"] = .number(Double(input.userIDs.count))
        return true
    }

    /// One user's object: each section's rows as JSON, a page at a time; files with a signed `url`.
    private func write(_ user: String, to out: FileHandle, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        var rows = 0
        try out.write(contentsOf: Data(#"{"user_id":\#(try Self.quoted(user))"#.utf8))
        for section in Self.sections {
            try out.write(contentsOf: Data(#","\#(section.name)":["#.utf8))
            var after = "(0,0)"
            var first = true
            while true {
                var query = PostgresQuery(
                    unsafeSQL: """
                        SELECT t.ctid::text, row_to_json(t)::text FROM \(section.table) t
                        WHERE \(section.predicate) AND t.ctid > $2::tid ORDER BY t.ctid LIMIT \(Self.page)
                        """)
                query.binds.append(user)
                query.binds.append(after)
                var read = 0
                for try await (ctid, json) in try await connection.query(query, logger: logger).decode((String, String).self) {
                    var entry = json
                    if section.table == "cdn_objects", let key = try? JSONText.object(json)["key"], case .string(let key) = key {
                        entry = #"{"url":\#(try Self.quoted(sign(key))),"record":\#(json)}"#
                    }
                    try out.write(contentsOf: Data(((first ? "" : ",") + entry).utf8))
                    (first, after, read) = (false, ctid, read + 1)
                }
                rows += read
                if read < Self.page { break }
            }
            try out.write(contentsOf: Data("]".utf8))
        }
        try out.write(contentsOf: Data("}".utf8))
        return rows
    }
}

extension UserExporter {
    /// `text` as a JSON string.
    static func quoted(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }
}

/// ExportFeedUserData's and ExportUsers' input.
struct UserExport: Codable {
    var userIDs: [String]
}
