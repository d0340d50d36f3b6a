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
}
