/// Writes 24-bit BMP files for tests, so no binary fixtures live in the repository.
public enum BMPWriter {
    /// A `width`×`height` BMP whose top half is white and bottom half black; a `height` header
    /// field of `claimedHeight` when given (a header that lies about its size).
    public static func halves(width: Int, height: Int, claimedHeight: Int? = nil) -> [UInt8] {
        let row = (width * 3 + 3) / 4 * 4
        let pixels = row * height
        var bytes: [UInt8] = Array("BM".utf8)
        func le(_ value: Int, _ count: Int) {
            for shift in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * shift))) }
        }
        le(54 + pixels, 4)
        le(0, 4)
        le(54, 4)
        le(40, 4)
        le(width, 4)
        le(claimedHeight ?? height, 4)  // positive: rows stored bottom-up
        le(1, 2)
        le(24, 2)
        le(0, 4)
        le(pixels, 4)
        le(2835, 4)
        le(2835, 4)
        le(0, 4)
        le(0, 4)
        for y in 0..<height {  // the bottom row first
            let white = y >= height / 2
            bytes += [UInt8](repeating: white ? 255 : 0, count: width * 3)
            bytes += [UInt8](repeating: 0, count: row - width * 3)
        }
        return bytes
    }
}
