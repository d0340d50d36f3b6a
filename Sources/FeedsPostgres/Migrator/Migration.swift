import Crypto
import Foundation

/// One forward-only schema change: a `Migrations/NNNN_name.sql` file.
public struct Migration: Sendable, Hashable {
    /// The file name, which orders migrations.
    public let name: String
    /// The file's statements, split on statement boundaries.
    public let statements: [String]
    /// SHA-256 of the file's bytes, hex: an applied file must never change.
    public let checksum: String

    public init(name: String, sql: String) {
        self.name = name
        self.statements = SQLStatementSplitter.split(sql)
        self.checksum = SHA256.hash(data: Data(sql.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The `.sql` files of a directory, in name order.
    public static func load(from directory: URL) throws -> [Migration] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
        return try names.map { name in
            Migration(name: name, sql: try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
        }
    }

    /// The migrations shipped with this build (the repository's `Migrations/`).
    public static func bundled() throws -> [Migration] {
        guard let directory = Bundle.module.url(forResource: "Migrations", withExtension: nil) else {
            throw MigrationError.missingBundle
        }
        return try load(from: directory)
    }
}

/// Why migrating stopped.
public enum MigrationError: Error, CustomStringConvertible, Equatable {
    /// An applied file whose content has changed since.
    case checksumMismatch(name: String, applied: String, now: String)
    /// The build has no Migrations resource.
    case missingBundle

    public var description: String {
        switch self {
        case .checksumMismatch(let name, let applied, let now):
            "migration \(name) was changed after it was applied (checksum \(applied.prefix(12))… then, \(now.prefix(12))… now); "
                + "restore the file and put the change in a new migration"
        case .missingBundle:
            "the Migrations resource is missing from this build"
        }
    }
}
