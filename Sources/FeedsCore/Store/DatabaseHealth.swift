/// Whether the database is known to be down right now (refusing connections), so that requests
/// can be answered 503 at once instead of each waiting out its deadline.
package protocol DatabaseHealth: Sendable {
    var isDown: Bool { get }
}
