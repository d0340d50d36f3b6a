import FeedsCore
import Foundation

/// The columns a user is read from, in order, and the user they make.
enum UserRow {
    static let columns = "id, name, image, role, language, teams, custom::text, created_at, updated_at"
    typealias Columns = (String, String?, String?, String, String, [String], String, Date, Date)

    static func user(_ c: Columns) throws -> User {
        User(
            id: c.0, name: c.1, image: c.2, role: c.3, language: c.4, teams: c.5, custom: try JSONText.object(c.6),
            createdAt: c.7, updatedAt: c.8)
    }

    /// The user in the next nine columns of a row, in the order of `columns`.
    static func user(_ columns: inout RowReader) throws -> User {
        let id: String = try columns.next(), name: String? = try columns.next(), image: String? = try columns.next()
        let role: String = try columns.next(), language: String = try columns.next(), teams: [String] = try columns.next()
        let custom = try JSONText.object(try columns.next())
        return User(
            id: id, name: name, image: image, role: role, language: language, teams: teams, custom: custom,
            createdAt: try columns.next(), updatedAt: try columns.next())
    }
}
