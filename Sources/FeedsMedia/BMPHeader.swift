import Foundation

/// A BMP's size from its header: libvips reads BMP only through ImageMagick, which is blocked
/// for hostile files, and the size is two numbers at fixed offsets.
enum BMPHeader {
    /// Width and height of a BMP with a Windows (40+ byte) or OS/2 (12 byte) info header; nil when
    /// the header is not one of those or the sizes are not positive.
    static func dimensions(ofFileAt path: String) -> (width: Int, height: Int)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 26), data.count >= 26, data[0] == 0x42, data[1] == 0x4D else {
            return nil
        }
        let bytes = [UInt8](data)
        func int32(_ at: Int) -> Int {
            Int(
                Int32(
                    bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(
                        bytes[at + 3]) << 24))
        }
        func int16(_ at: Int) -> Int { Int(UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8) }
        let headerSize = int32(14)
        let (width, height) = headerSize == 12 ? (int16(18), int16(20)) : headerSize >= 40 ? (int32(18), abs(int32(22))) : (0, 0)
        // A negative height is a top-down bitmap; both must be positive and within libvips's limits.
        guard width > 0, height > 0, width <= 10_000_000, height <= 10_000_000 else { return nil }
        return (width, height)
    }
}
