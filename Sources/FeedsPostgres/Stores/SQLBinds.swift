import FeedsCore
import Foundation
import PostgresNIO

/// The parameters of a statement put together clause by clause: each value bound is named by
/// the placeholder it returns (`sql += " AND id = \(try bind(id))"`).
struct SQLBinds {
    private(set) var bindings = PostgresBindings()

    /// Binds `value`; returns its `$n`.
    mutating func callAsFunction<Value: PostgresEncodable>(_ value: Value) throws -> String {
        try bindings.append(value)
        return "$\(bindings.count)"
    }

    /// Binds `value`, NULL when nil; returns its `$n`.
    mutating func callAsFunction<Value: PostgresEncodable>(_ value: Value?) throws -> String {
        try bindings.append(value)
        return "$\(bindings.count)"
    }

    /// A time as whole microseconds since 1970. PostgresNIO encodes a `Date` by truncating a
    /// `Double`, which can land a microsecond early, so a bound equal to a stored time would miss it.
    mutating func time(microseconds: Int64) throws -> String {
        "(timestamptz 'epoch' + \(try self(microseconds)) * interval '1 microsecond')"
    }

    mutating func time(_ date: Date) throws -> String {
        try time(microseconds: date.microsecondsSince1970)
    }

    func query(_ sql: String) -> PostgresQuery {
        PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}
