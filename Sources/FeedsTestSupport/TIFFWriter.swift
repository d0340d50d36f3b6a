/// Writes TIFF files for tests, so no binary fixtures live in the repository.
public enum TIFFWriter {
    public static let pixels: [UInt8] = (0..<24).map { UInt8($0 * 10) }
    public static let gpsLatitude: [UInt8] = [0, 0, 0, 52, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 30, 0, 0, 0, 1]

    /// A 4×2 RGB TIFF, big-endian, as a camera might write it: orientation 6, maker and model, XMP,
    /// an EXIF directory with a maker note and a GPS directory with `gpsLatitude`; `pixels` last.
    public static func camera() -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        var data: [UInt8] = []  // out-of-line values, after the directories
        var entries: [(tag: Int, type: Int, count: Int, value: [UInt8])] = []
        let ifd0Count = 16
        let ifd0 = 8, exifIFD = ifd0 + 2 + ifd0Count * 12 + 4, gpsIFD = exifIFD + 2 + 12 + 4
        let dataStart = gpsIFD + 2 + 2 * 12 + 4
        func place(_ bytes: [UInt8]) -> [UInt8] {
            let offset = dataStart + data.count
            data += bytes + (bytes.count % 2 == 1 ? [0] : [])
            return u32(offset)
        }
        let make = Array("PhoneCo\0".utf8), model = Array("Phone 15 SN123\0".utf8)
        let xmp = Array("<x:xmpmeta>GPS 52.1 home</x:xmpmeta>".utf8), maker = Array("maker serial 42".utf8)
        entries = [
            (256, 3, 1, u16(4) + [0, 0]), (257, 3, 1, u16(2) + [0, 0]), (258, 3, 3, place(u16(8) + u16(8) + u16(8))),
            (259, 3, 1, u16(1) + [0, 0]), (262, 3, 1, u16(2) + [0, 0]), (271, 2, make.count, place(make)),
            (272, 2, model.count, place(model)), (273, 4, 1, [0, 0, 0, 0]), (274, 3, 1, u16(6) + [0, 0]),
            (277, 3, 1, u16(3) + [0, 0]), (278, 3, 1, u16(2) + [0, 0]), (279, 4, 1, u32(pixels.count)),
            (284, 3, 1, u16(1) + [0, 0]), (700, 1, xmp.count, place(xmp)), (34665, 4, 1, u32(exifIFD)),
            (34853, 4, 1, u32(gpsIFD)),
        ]
        let makerAt = place(maker), latitudeAt = place(gpsLatitude)
        let pixelsAt = dataStart + data.count
        entries[7].value = u32(pixelsAt)
        var file: [UInt8] = [0x4D, 0x4D, 0, 42] + u32(ifd0) + u16(ifd0Count)
        for entry in entries { file += u16(entry.tag) + u16(entry.type) + u32(entry.count) + entry.value }
        file += u32(0)
        file += u16(1) + u16(37500) + u16(7) + u32(maker.count) + makerAt + u32(0)
        file += u16(2) + u16(1) + u16(2) + u32(2) + [0x4E, 0, 0, 0] + u16(2) + u16(5) + u32(3) + latitudeAt + u32(0)
        return file + data + pixels
    }
}
