/// Builds PNG files byte by byte (8-bit greyscale, stored deflate blocks), so the tests need no
/// image library to make one.
public enum PNGWriter {
    /// A complete, valid PNG of black pixels.
    public static func png(width: Int, height: Int) -> [UInt8] {
        signature + header(width: width, height: height) + chunk("IDAT", zlibStored(scanlines(width: width, height: height)))
            + chunk("IEND", [])
    }

    /// Only the signature and the IHDR chunk: what a header reader needs, and nothing to decode.
    public static func headerOnly(width: Int, height: Int) -> [UInt8] {
        signature + header(width: width, height: height)
    }

    /// A PNG whose header claims `width`×`height` but which holds only one row of pixels:
    /// a header reader measures it, a decoder would fail.
    public static func claiming(width: Int, height: Int) -> [UInt8] {
        signature + header(width: width, height: height) + chunk("IDAT", zlibStored([UInt8](repeating: 0, count: width + 1)))
            + chunk("IEND", [])
    }

    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func header(width: Int, height: Int) -> [UInt8] {
        // Bit depth 8, colour type 0 (greyscale), default compression, filter and interlace.
        chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 0, 0, 0, 0])
    }

    private static func scanlines(width: Int, height: Int) -> [UInt8] {
        // Each row: filter type 0, then one byte per pixel.
        [UInt8](repeating: 0, count: (width + 1) * height)
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc32(typeAndData))
    }

    /// A zlib stream of uncompressed deflate blocks (at most 65,535 bytes each).
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, data.count)
            let length = UInt16(end - start)
            out.append(end == data.count ? 1 : 0)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += data[start..<end]
            start = end
        } while start < data.count
        return out + bigEndian(adler32(data))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
