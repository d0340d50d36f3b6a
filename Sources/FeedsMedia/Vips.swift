import CVips
import FeedsCore

/// libvips, started once per process.
enum Vips {
    // A global `let` is initialised once, under a lock, on first use: exactly what `VIPS_INIT` needs.
    // Fails closed: libvips runs only when every untrusted loader is blocked. Blocking is applied
    // twice at most: a second pass costs nothing and covers a loader class registered late.
    private static let failure: String? = {
        var error = [CChar](repeating: 0, count: 1024)
        guard feeds_vips_start(&error, error.count) == 0 else { return text(error) }
        var names = [CChar](repeating: 0, count: 1024)
        for _ in 0..<2 {
            feeds_vips_block_untrusted()
            if feeds_vips_open_untrusted_loaders(&names, names.count) == 0 { return nil }
        }
        return "untrusted loaders still open after blocking: \(text(names))"
    }()

    /// Starts libvips on first use.
    ///
    /// - Throws: `FeedsError` (`.internal`, with libvips's reason for the server log) when libvips
    ///   could not start.
    static func start() throws {
        if let failure { throw FeedsError(.internal, "The image library could not start: \(failure)") }
    }

    /// A C string that libvips wrote into `buffer`.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
