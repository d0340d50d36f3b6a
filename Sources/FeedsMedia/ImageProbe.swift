import CVips

/// Reads an image's dimensions from its header with libvips, without decoding its pixels.
public enum ImageProbe {
    /// The width and height in pixels as the image is shown: an EXIF orientation of 5–8 (a photo
    /// taken on its side) swaps the stored sides. Nil when the bytes are not one of
    /// `ImageTypes.allowed` or libvips cannot read their header (a corrupt or truncated file).
    ///
    /// The file is sniffed first, so that only image decoders ever see it: libvips would otherwise
    /// hand PDFs and other documents to poppler or ImageMagick. `path` names a server-made file;
    /// libvips reads a trailing `[…]` in a file name as load options.
    ///
    /// - Throws: `FeedsError` (`.internal`) when the file cannot be read or a library cannot start.
    public static func dimensions(ofFileAt path: String) throws -> (width: Int, height: Int)? {
        let type = try MediaSniffer.mimeType(ofFileAt: path)
        guard ImageTypes.allowed.contains(type) else { return nil }
        // libvips reads BMP only through ImageMagick, which stays blocked (`Vips.start`).
        if type == "image/bmp" { return BMPHeader.dimensions(ofFileAt: path) }
        try Vips.start()
        var (width, height, orientation): (Int32, Int32, Int32) = (0, 0, 1)
        guard feeds_vips_header_size(path, &width, &height, &orientation) == 0, width > 0, height > 0 else { return nil }
        return (5...8).contains(orientation) ? (Int(height), Int(width)) : (Int(width), Int(height))
    }
}
