import FeedsCore
import PostgresNIO

/// A row's cells read in order, each decoded where it is asked for, so the compiler specialises
/// every decode. The variadic `row.decode((…).self)` of a 23-column activity row looked up generic
/// metadata for each cell; that was a tenth of a feed page.
struct RowReader {
    private var cells: PostgresRow.Iterator

    init(_ row: PostgresRow) {
        cells = row.makeIterator()
    }

    mutating func next<Value: PostgresDecodable>(_: Value.Type = Value.self) throws -> Value {
        guard let cell = cells.next() else { throw FeedsError(.internal, "a row has fewer columns than its reader reads") }
        return try cell.decode(Value.self)
    }

    /// Passes over `count` columns without decoding them.
    mutating func skip(_ count: Int) {
        for _ in 0..<count { _ = cells.next() }
    }
}
