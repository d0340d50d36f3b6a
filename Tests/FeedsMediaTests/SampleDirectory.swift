import CVips
import Foundation

@testable import FeedsMedia

/// A temp directory of sample files made at run time, removed when the test lets go of it.
final class SampleDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `bytes` to a file called `name` and returns its path.
    func write(_ bytes: [UInt8], named name: String) throws -> String {
        let fileURL = url.appendingPathComponent(name)
        try Data(bytes).write(to: fileURL)
        return fileURL.path
    }

    /// Writes `text` as UTF-8 to a file called `name` and returns its path.
    func write(_ text: String, named name: String) throws -> String {
        try write(Array(text.utf8), named: name)
    }

    /// Has libvips write a black image in the format `name`'s suffix picks; returns its path.
    func blackImage(named name: String, width: Int, height: Int) throws -> String {
        try Vips.start()
        let path = url.appendingPathComponent(name).path
        guard feeds_vips_save_black(path, Int32(width), Int32(height)) == 0 else {
            throw SampleError.notWritten(name)
        }
        return path
    }
}

extension SampleDirectory {
    /// An image whose first half (the top, or the left when `across`) is white, the rest black.
    func halves(named name: String, width: Int, height: Int, across: Bool = false, alpha: Bool = false) throws -> String {
        try Vips.start()
        let path = url.appendingPathComponent(name).path
        guard feeds_vips_save_halves(path, Int32(width), Int32(height), across ? 1 : 0, alpha ? 1 : 0) == 0 else {
            throw SampleError.notWritten(name)
        }
        return path
    }

    /// An animated GIF: a black first frame, then grey ones.
    func animatedGIF(named name: String, width: Int, height: Int, frames: Int) throws -> String {
        try Vips.start()
        let path = url.appendingPathComponent(name).path
        guard feeds_vips_save_animated_gif(path, Int32(width), Int32(height), Int32(frames)) == 0 else {
            throw SampleError.notWritten(name)
        }
        return path
    }

    /// A JPEG carrying EXIF with a GPS tag.
    func jpegWithEXIF(named name: String, width: Int, height: Int) throws -> String {
        try Vips.start()
        let path = url.appendingPathComponent(name).path
        guard feeds_vips_save_jpeg_with_exif(path, Int32(width), Int32(height)) == 0 else { throw SampleError.notWritten(name) }
        return path
    }

    /// A path in the directory for an output.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// What libvips reads back from an image: mean of all bands, size, bands, EXIF.
struct Inspection {
    var mean: Double
    var width: Int
    var height: Int
    var bands: Int
    var hasEXIF: Bool

    init(_ path: String) throws {
        var mean = 0.0
        var (width, height, bands, exif): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard feeds_vips_inspect(path, &mean, &width, &height, &bands, &exif) == 0 else { throw SampleError.notWritten(path) }
        (self.mean, self.width, self.height, self.bands, self.hasEXIF) = (mean, Int(width), Int(height), Int(bands), exif != 0)
    }
}

enum SampleError: Error {
    case notWritten(String)
}
