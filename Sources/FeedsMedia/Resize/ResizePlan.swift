/// The geometry of a resize, worked out from the source's size before any pixel is decoded:
/// scale to `scaled`, then cut `area` out of it or pad it to `box`.
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
        let (sw, sh) = (Double(source.width), Double(source.height))
        // One side alone keeps the aspect ratio, whatever the mode: the box is open on the other side.
        guard let width = request.width, let height = request.height else {
            let scale = request.width.map { Double($0) / sw } ?? Double(request.height!) / sh
            scaled = Self.size(sw * scale, sh * scale)
            finish = .none
            return
        }
        let box = Size(width, height)
        switch request.mode {
        case .clip:
            let scale = min(Double(width) / sw, Double(height) / sh)
            scaled = Self.size(sw * scale, sh * scale)
            finish = .none
        case .scale:
            scaled = box
            finish = .none
        case .fill:
            let scale = min(Double(width) / sw, Double(height) / sh)
            scaled = Self.size(min(sw * scale, Double(width)), min(sh * scale, Double(height)))
            finish = scaled == box ? .none : .pad(box)
        case .crop:
            let scale = max(Double(width) / sw, Double(height) / sh)
            scaled = Self.size(max(sw * scale, Double(width)), max(sh * scale, Double(height)))
            let spareX = scaled.width - width
            let spareY = scaled.height - height
            let left: Int
            let top: Int
            switch request.gravity {
            case .center: (left, top) = (spareX / 2, spareY / 2)
            case .top: (left, top) = (spareX / 2, 0)
            case .bottom: (left, top) = (spareX / 2, spareY)
            case .left: (left, top) = (0, spareY / 2)
            case .right: (left, top) = (spareX, spareY / 2)
            }
            finish = scaled == box ? .none : .extract(left: left, top: top, box)
        }
    }

    /// Rounded to whole pixels, never below one.
    private static func size(_ width: Double, _ height: Double) -> Size {
        Size(max(1, Int(width.rounded())), max(1, Int(height.rounded())))
    }
}
