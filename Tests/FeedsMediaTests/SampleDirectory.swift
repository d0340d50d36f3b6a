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

enum SampleError: Error {
    case notWritten(String)
}
