import FeedsMedia
import FeedsTestSupport
import Testing

@Suite struct ResizePlanTests {
    typealias Size = ResizePlan.Size
    static let landscape = Size(4000, 3000)
    static let portrait = Size(3000, 4000)
    static let square = Size(1000, 1000)

    func plan(
        _ source: Size, _ w: Int?, _ h: Int?, _ mode: ResizeRequest.Mode = .clip, _ gravity: ResizeRequest.Gravity = .center
    )
        -> ResizePlan
    {
        ResizePlan(source: source, request: ResizeRequest(width: w, height: h, mode: mode, gravity: gravity))
    }

    @Test func clipFitsInsideKeepingTheAspect() {
        #expect(plan(Self.landscape, 400, 400).output == Size(400, 300))
        #expect(plan(Self.portrait, 400, 400).output == Size(300, 400))
        #expect(plan(Self.square, 400, 200).output == Size(200, 200))
        #expect(plan(Self.landscape, 400, 400).finish == .none)
    }

    @Test func oneSideKeepsTheAspectInEveryMode() {
        for mode in ResizeRequest.Mode.allCases {
            #expect(plan(Self.landscape, 400, nil, mode).output == Size(400, 300))
            #expect(plan(Self.landscape, nil, 150, mode).output == Size(200, 150))
            #expect(plan(Self.portrait, 300, nil, mode).output == Size(300, 400))
        }
    }

    @Test func scaleIsExactlyTheBox() {
        #expect(plan(Self.landscape, 100, 500, .scale).output == Size(100, 500))
        #expect(plan(Self.square, 7, 9, .scale).finish == .none)
    }

    @Test func fillPadsToTheBox() {
        let landscape = plan(Self.landscape, 400, 400, .fill)
        #expect(landscape.scaled == Size(400, 300))
        #expect(landscape.finish == .pad(Size(400, 400)))
        #expect(plan(Self.portrait, 400, 400, .fill).scaled == Size(300, 400))
        #expect(plan(Self.square, 400, 400, .fill).finish == .none)
    }

    /// Crop fills the box, then keeps the part the gravity names, centred on the other axis.
    @Test(arguments: [
        (landscape, ResizeRequest.Gravity.center, 66, 0), (landscape, .top, 66, 0), (landscape, .bottom, 66, 0),
        (landscape, .left, 0, 0), (landscape, .right, 133, 0),
        (portrait, .center, 0, 66), (portrait, .top, 0, 0), (portrait, .bottom, 0, 133),
        (portrait, .left, 0, 66), (portrait, .right, 0, 66),
        (square, .center, 0, 0), (square, .top, 0, 0), (square, .bottom, 0, 0), (square, .left, 0, 0), (square, .right, 0, 0),
    ])
    func cropKeepsThePartTheGravityNames(_ source: Size, _ gravity: ResizeRequest.Gravity, _ left: Int, _ top: Int) {
        let plan = plan(source, 400, 400, .crop, gravity)
        #expect(plan.output == Size(400, 400))
        if source == Self.square {
            #expect(plan.finish == .none)
        } else {
            #expect(plan.scaled == (source == Self.landscape ? Size(533, 400) : Size(400, 533)))
            #expect(plan.finish == .extract(left: left, top: top, Size(400, 400)))
        }
    }

    @Test func tinySidesNeverReachZero() {
        #expect(plan(Size(10_000, 1), 100, nil).output == Size(100, 1))
        #expect(plan(Size(1, 4000), nil, 10).output == Size(1, 10))
    }
}

/// Whatever the source's shape and the request, a plan stays within the caps: the property that
/// keeps a 1×600000 strip asked for `w=4096` from becoming a multi-gigapixel image (or a trap).
@Suite struct ResizePlanCapTests {
    typealias Size = ResizePlan.Size

    @Test func aTallStripAskedForTheWidestSideStaysWithinTheCap() {
        let strip = ResizePlan(source: Size(1, 600_000), request: ResizeRequest(width: 4096, height: nil))
        #expect(strip.output == Size(1, 4096))
        let cropped = ResizePlan(source: Size(1, 600_000), request: ResizeRequest(width: 4096, height: 10, mode: .crop))
        #expect(cropped.scaled.height <= ResizePlan.maximumSide)
        #expect(cropped.output == Size(1, 10))
    }

    @Test func randomShapesAndRequestsNeverLeaveTheCaps() {
        var random = SeededRandom(seed: 0x5eed)
        let sides = [1, 2, 3, 7, 100, 1000, 4096, 10_000, 600_000, 16_800_000]
        for _ in 0..<20_000 {
            let source = Size(sides.randomElement(using: &random)!, Int.random(in: 1...600_000, using: &random))
            let shape = Bool.random(using: &random) ? source : Size(source.height, source.width)
            let width = Int.random(in: 0...ResizeRequest.maximumSide, using: &random)
            let height = Int.random(in: 0...ResizeRequest.maximumSide, using: &random)
            let request = ResizeRequest(
                width: width == 0 ? nil : width, height: height == 0 && width != 0 ? nil : max(height, 1),
                mode: ResizeRequest.Mode.allCases.randomElement(using: &random)!,
                gravity: ResizeRequest.Gravity.allCases.randomElement(using: &random)!)
            let plan = ResizePlan(source: shape, request: request)
            for size in [plan.scaled, plan.output] {
                #expect((1...ResizePlan.maximumSide).contains(size.width), "\(shape) \(request): \(plan)")
                #expect((1...ResizePlan.maximumSide).contains(size.height), "\(shape) \(request): \(plan)")
            }
            #expect(plan.output.width * plan.output.height <= ImageResizer.pixelLimit)
            if case .extract(let left, let top, let cut) = plan.finish {
                #expect(left >= 0 && top >= 0 && left + cut.width <= plan.scaled.width && top + cut.height <= plan.scaled.height)
            }
        }
    }
}
