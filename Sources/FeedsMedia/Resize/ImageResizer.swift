import CVips
import FeedsCore

/// Resizes images with libvips: shrink-on-load, first frame only, metadata stripped. The caller
/// runs it off the async pool: it blocks while it works.
public enum ImageResizer {
    /// Sources larger than this (width × height, from the header) are not resized.
    public static let pixelLimit = 16_800_000

    /// The format a resize of `mimeType` is written in, or nil when it cannot be resized here
    /// (SVG is never rasterised).
    public static func outputType(for mimeType: String, webp: Bool) -> String? {
        let natural = outputType(for: mimeType)
        return webp && (natural == "image/jpeg" || natural == "image/png") ? "image/webp" : natural
    }

    /// The same, for a client that takes only the usual formats.
    public static func outputType(for mimeType: String) -> String? {
        switch MediaSniffer.normalized(mimeType) {
        case "image/jpeg", "image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence", "image/bmp", "image/tiff":
            "image/jpeg"
        case "image/png": "image/png"
        case "image/webp": "image/webp"
        case "image/gif": "image/gif"
        default: nil
        }
    }

    /// Writes the resize of the image at `source` (of the sniffed `mimeType`) to `destination`;
    /// returns the output's type and size. A source that is not a resizable image, is over the
    /// pixel limit or cannot be decoded is a 400. `decodedFrom`: the type of the original that
    /// `source` was decoded from (a BMP's PNG), whose output type the result takes.
    public static func resize(
        source: String, mimeType: String, decodedFrom original: String? = nil, request: ResizeRequest, to destination: String
    ) throws -> (mimeType: String, size: ResizePlan.Size) {
        guard let output = outputType(for: original ?? mimeType, webp: request.webp) else {
            throw FeedsError.input("\(mimeType) files cannot be resized; fetch the URL without w and h", field: "w")
        }
        guard let dimensions = try ImageProbe.dimensions(ofFileAt: source) else {
            throw FeedsError.input("the image cannot be read, so it cannot be resized", field: "w")
        }
        guard dimensions.width * dimensions.height <= pixelLimit else {
            throw FeedsError.input(
                "the image is \(dimensions.width)×\(dimensions.height) pixels, over the \(pixelLimit)-pixel limit for resizing",
                field: "w")
        }
        let plan = ResizePlan(source: .init(dimensions.width, dimensions.height), request: request)
        try Vips.start()
        var extract: (Int32, Int32) = (0, 0)
        var pad = false
        switch plan.finish {
        case .none: break
        case .extract(let left, let top, _): extract = (try pixels(left), try pixels(top))
        case .pad: pad = true
        }
        let isExtract = if case .extract = plan.finish { true } else { false }
        let format: Int32 =
            switch output {
            case "image/png": Int32(FEEDS_VIPS_PNG)
            case "image/webp": Int32(FEEDS_VIPS_WEBP)
            case "image/gif": Int32(FEEDS_VIPS_GIF)
            default: Int32(FEEDS_VIPS_JPEG)
            }
        var error = [CChar](repeating: 0, count: 512)
        let result = feeds_vips_resize(
            source, destination, try pixels(plan.scaled.width), try pixels(plan.scaled.height), isExtract ? 1 : 0,
            pad ? 1 : 0, extract.0, extract.1, try pixels(plan.output.width), try pixels(plan.output.height),
            output == "image/jpeg" ? 0 : 1,
            format, &error, error.count)
        guard result == 0 else {
            let reason = Vips.text(error)
            throw FeedsError.input(
                "the image could not be resized: \(reason.split(separator: "\n").first.map(String.init) ?? "corrupt data")",
                field: "w")
        }
        return (output, plan.output)
    }

    /// A plan's side or offset as libvips takes it; the plan keeps them small, and a value that is
    /// not is a refusal, never a trap.
    private static func pixels(_ value: Int) throws -> Int32 {
        guard let pixels = Int32(exactly: value), pixels >= 0, value <= ResizePlan.maximumSide else {
            throw FeedsError.input("a resize of \(value) pixels is out of range", field: "w")
        }
        return pixels
    }
}
