import FeedsCore
import Foundation

/// What a client asks of an image URL: `w`, `h`, `resize` and `crop`, as Stream's CDN takes them.
public struct ResizeRequest: Sendable, Hashable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Fit inside the box, keeping the aspect ratio (the default).
        case clip
        /// Fill the box, then cut what sticks out, by `crop`.
        case crop
        /// Exactly the box, aspect ignored.
        case scale
        /// Fit inside, then pad to exactly the box.
        case fill
    }

    /// Which part of the image a crop keeps.
    public enum Gravity: String, Sendable, CaseIterable {
        case center, top, bottom, left, right
    }

    public var width: Int?
    public var height: Int?
    public var mode: Mode
    public var gravity: Gravity
    /// The client takes WebP (its `Accept` says so): what would come out as JPEG or PNG comes out
    /// as WebP, a third smaller or more at the same quality.
    public var webp = false

    /// The largest side a client may ask for.
    public static let maximumSide = 4096

    public init(width: Int?, height: Int?, mode: Mode = .clip, gravity: Gravity = .center) {
        self.width = width
        self.height = height
        self.mode = mode
        self.gravity = gravity
    }

    /// The request in a URL's query; nil when it asks for no resize (no `w` and no `h`).
    /// Invalid values are a 400 naming the parameter.
    public init?(query: [String: String]) throws {
        func side(_ name: String) throws -> Int? {
            guard let text = query[name] else { return nil }
            guard let value = Int(text), (1...Self.maximumSide).contains(value) else {
                throw FeedsError.input("\(name) must be a whole number of pixels from 1 to \(Self.maximumSide)", field: name)
            }
            return value
        }
        let width = try side("w")
        let height = try side("h")
        let mode = try query["resize"].map { text in
            guard let mode = Mode(rawValue: text) else {
                throw FeedsError.input("resize must be clip, crop, scale or fill", field: "resize")
            }
            return mode
        }
        let gravity = try query["crop"].map { text in
            guard let gravity = Gravity(rawValue: text) else {
                throw FeedsError.input("crop must be center, top, bottom, left or right", field: "crop")
            }
            return gravity
        }
        guard width != nil || height != nil else {
            if mode != nil || gravity != nil {
                throw FeedsError.input("resize and crop need w or h", field: query["resize"] != nil ? "resize" : "crop")
            }
            return nil
        }
        self.init(width: width, height: height, mode: mode ?? .clip, gravity: gravity ?? .center)
    }

    /// A stable name for the variant, for cache keys and file names.
    public var variantName: String {
        "\(width.map(String.init) ?? "_")x\(height.map(String.init) ?? "_")-\(mode.rawValue)-\(gravity.rawValue)"
            + (webp ? "-webp" : "")
    }

    /// Whether an `Accept` header takes WebP: it names `image/webp` without `q=0`. (`*/*` alone
    /// does not count: a client that says nothing gets the format it sent.)
    public static func acceptsWebP(_ accept: String?) -> Bool {
        guard let accept else { return false }
        return accept.split(separator: ",").contains { range in
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard parts.first == "image/webp" else { return false }
            return !parts.dropFirst().contains { $0.hasPrefix("q=") && Double($0.dropFirst(2)) == 0 }
        }
    }
}
