import FeedsCore
import Foundation
import PostgresNIO

/// The columns a user is read from, in order, and the user they make.
enum UserRow {
    private static let names = ["id", "name", "image", "role", "language", "teams", "custom::text", "created_at", "updated_at"]
    static let columns = names.joined(separator: ", ")
    static let columnCount = names.count

    /// The same columns of the user aliased `alias`.
    static func columns(alias: String) -> String {
        names.map { "\(alias).\($0)" }.joined(separator: ", ")
    }

    /// The user in the next nine columns of a row, in the order of `columns`.
    static func user(_ columns: inout RowReader) throws -> User {
        try user(id: try columns.next(), &columns)
    }

    /// The user whose id was read already, from the eight columns after it.
    static func user(id: String, _ columns: inout RowReader) throws -> User {
        let name: String? = try columns.next(), image: String? = try columns.next()
        let role: String = try columns.next(), language: String = try columns.next(), teams: [String] = try columns.next()
        let custom = try JSONText.object(try columns.next())
        return User(
            id: id, name: name, image: image, role: role, language: language, teams: teams, custom: custom,
            createdAt: try columns.next(), updatedAt: try columns.next())
    }

    /// The user of each row.
    static func users(_ rows: PostgresRowSequence) async throws -> [User] {
        var users: [User] = []
        for try await row in rows {
            var columns = RowReader(row)
            users.append(try user(&columns))
        }
        return users
    }
}
