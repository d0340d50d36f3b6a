/// The geometry of a resize, worked out from the source's size before any pixel is decoded:
/// scale to `scaled`, then cut `area` out of it or pad it to `box`. Whatever the source's shape
/// and the request, no side of `scaled` or of the output is over `maximumSide`, so a resize never
/// makes more than `maximumSide`² pixels (under `ImageResizer.pixelLimit`).
public struct ResizePlan: Sendable, Equatable {
    public struct Size: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public init(_ width: Int, _ height: Int) {
            self.width = width
            self.height = height
        }
    }

    public enum Finish: Sendable, Equatable {
        case none
        /// Cut this area (left, top, and the box's size) out of the scaled image.
        case extract(left: Int, top: Int, Size)
        /// Pad the scaled image, centred, to this size.
        case pad(Size)
    }

    /// The longest side a plan makes, of the scaled image and of the output alike.
    public static let maximumSide = ResizeRequest.maximumSide

    public var scaled: Size
    public var finish: Finish

    /// The size of the result.
    public var output: Size {
        switch finish {
        case .none: scaled
        case .extract(_, _, let size), .pad(let size): size
        }
    }

    public init(source: Size, request: ResizeRequest) {
        let (sw, sh) = (Double(max(1, source.width)), Double(max(1, source.height)))
        let cap = Double(Self.maximumSide)
        // The largest scale that keeps both sides within the cap: a tall or wide source reaches
        // it long before the side the client named does.
        let capScale = min(cap / sw, cap / sh)
        // One side alone keeps the aspect ratio, whatever the mode: the box is open on the other
        // side up to the cap.
        guard let width = request.width, let height = request.height else {
            let asked = request.width.map { Double($0) / sw } ?? request.height.map { Double($0) / sh } ?? 1
            scaled = Self.size(sw * min(asked, capScale), sh * min(asked, capScale))
            finish = .none
            return
        }
        let box = Self.size(Double(width), Double(height))
        switch request.mode {
        case .clip:
            let scale = min(Double(box.width) / sw, Double(box.height) / sh)
            scaled = Self.size(sw * scale, sh * scale)
            finish = .none
        case .scale:
            scaled = box
            finish = .none
        case .fill:
            let scale = min(Double(box.width) / sw, Double(box.height) / sh)
            scaled = Self.size(min(sw * scale, Double(box.width)), min(sh * scale, Double(box.height)))
            finish = scaled == box ? .none : .pad(box)
        case .crop:
            // Filling the box may need a scaled image far over the cap (a 1×600000 strip cropped
            // to 4096×10); then the scale stops at the cap and the cut keeps what there is.
            let scale = min(max(Double(box.width) / sw, Double(box.height) / sh), capScale)
            scaled = Self.size(sw * scale, sh * scale)
            let cut = Size(min(box.width, scaled.width), min(box.height, scaled.height))
            let spareX = scaled.width - cut.width
            let spareY = scaled.height - cut.height
            let left: Int
            let top: Int
            switch request.gravity {
            case .center: (left, top) = (spareX / 2, spareY / 2)
            case .top: (left, top) = (spareX / 2, 0)
            case .bottom: (left, top) = (spareX / 2, spareY)
            case .left: (left, top) = (0, spareY / 2)
            case .right: (left, top) = (spareX, spareY / 2)
            }
            finish = scaled == cut ? .none : .extract(left: left, top: top, cut)
        }
    }

    /// Rounded to whole pixels, from one to `maximumSide` (a NaN or infinite side is one pixel).
    private static func size(_ width: Double, _ height: Double) -> Size {
        func side(_ value: Double) -> Int {
            guard value.isFinite else { return 1 }
            return Int(min(max(value.rounded(), 1), Double(maximumSide)))
        }
        return Size(side(width), side(height))
    }
}
