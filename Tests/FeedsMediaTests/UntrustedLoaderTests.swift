import CVips
import Testing

@testable import FeedsMedia

/// Uploads are hostile files: libvips's loaders that were never hardened against them stay off.
@Suite struct UntrustedLoaderTests {
    @Test func untrustedLoadersAreBlockedOnceLibvipsStarts() throws {
        try Vips.start()
        for loader in ["magickload", "pdfload", "fitsload", "ppmload", "csvload", "vipsload"] {
            let blocked = feeds_vips_is_blocked(loader)
            #expect(blocked == 1 || blocked == -1, "\(loader) may run")
        }
        #expect(feeds_vips_is_blocked("magickload") == 1)
        var names = [CChar](repeating: 0, count: 1024)
        #expect(feeds_vips_open_untrusted_loaders(&names, names.count) == 0, "open: \(Vips.text(names))")
        for loader in ["pngload", "jpegload", "gifload", "webpload", "heifload", "svgload"] {
            #expect(feeds_vips_is_blocked(loader) == 0, "\(loader) is blocked")
        }
    }
}
