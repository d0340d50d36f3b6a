import CVips
import FeedsCore

/// libvips, started once per process.
enum Vips {
    // A global `let` is initialised once, under a lock, on first use: exactly what `VIPS_INIT` needs.
    // Fails closed: libvips runs only when every untrusted loader is blocked.
    private static let started = feeds_vips_start() == 0 && feeds_vips_open_untrusted_loaders() == 0

    /// Starts libvips on first use.
    ///
    /// - Throws: `FeedsError` (`.internal`) when libvips could not start.
    static func start() throws {
        guard started else { throw FeedsError(.internal, "The image library could not start.") }
    }
}
