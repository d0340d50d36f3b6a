import FeedsCore
import FeedsMedia
import Testing

@Suite struct ResizeRequestTests {
    @Test func noSizeMeansNoResize() throws {
        #expect(try ResizeRequest(query: [:]) == nil)
        #expect(try ResizeRequest(query: ["Expires": "1", "Signature": "x"]) == nil)
    }

    @Test func defaultsAreClipAndCenter() throws {
        let request = try #require(try ResizeRequest(query: ["w": "100"]))
        #expect(request == ResizeRequest(width: 100, height: nil, mode: .clip, gravity: .center))
        let both = try #require(try ResizeRequest(query: ["w": "1", "h": "4096", "resize": "crop", "crop": "left"]))
        #expect(both == ResizeRequest(width: 1, height: 4096, mode: .crop, gravity: .left))
    }

    static let invalid: [([String: String], String)] = [
        (["w": "0"], "w"), (["w": "4097"], "w"), (["w": "-5"], "w"), (["w": "abc"], "w"), (["w": "10.5"], "w"),
        (["w": ""], "w"), (["h": "0"], "h"), (["h": "99999999999999999999"], "h"),
        (["w": "10", "resize": "stretch"], "resize"), (["w": "10", "resize": "CLIP"], "resize"),
        (["w": "10", "crop": "middle"], "crop"), (["resize": "crop"], "resize"), (["crop": "top"], "crop"),
    ]

    @Test(arguments: invalid) func invalidParametersAreRefused(_ query: [String: String], _ field: String) {
        #expect {
            try ResizeRequest(query: query)
        } throws: { error in
            (error as? FeedsError)?.kind == .input && (error as? FeedsError)?.field == field
        }
    }
}
