import FeedsAPI
import FeedsCore
import Foundation
import Testing

@testable import FeedsHTTP
@testable import FeedsWire

/// The common creates are read from parsed JSON rather than by JSONDecoder: each must come out as
/// JSONDecoder reads it, and anything else must be left to JSONDecoder.
@Suite struct AddActivityRequestCommonTests {
    typealias Request = Components.Schemas.AddActivityRequest

    static let common = [
        #"{"type":"post","feeds":["user:alice"]}"#,
        #"{"type":"post","feeds":[],"text":null,"custom":null,"visibility":null}"#,
        #"{"type":"po\"st ✓","feeds":["user:a","timeline:b"],"text":"line\nbreak \u00e9","user_id":"alice","id":"a-1"}"#,
        #"{"type":"post","feeds":["user:a"],"visibility":"tag","visibility_tag":"vip","restrict_replies":"nobody"}"#,
        #"{"type":"post","feeds":["user:a"],"custom":{"n":1,"x":2.5,"big":12345678901234567,"e":1e3,"s":"v","list":[true,null,{"k":[]}]}}"#,
        #" { "feeds" : [ "user:a" ] , "type" : "post" } "#,
    ]

    static let others = [
        #"{"type":"post","feeds":["user:a"],"location":{"lat":1,"lng":2}}"#,  // a field outside the common ones
        #"{"type":"post","feeds":["user:a"],"attachments":[]}"#,
        #"{"type":"post","feeds":"user:a"}"#,  // wrong types
        #"{"type":"post","feeds":["user:a", 3]}"#,
        #"{"type":1,"feeds":["user:a"]}"#,
        #"{"type":"post","feeds":["user:a"],"text":5}"#,
        #"{"type":null,"feeds":["user:a"]}"#,  // a required field null or missing
        #"{"feeds":["user:a"]}"#,
        #"{"type":"post","feeds":["user:a"],"visibility":"everyone"}"#,  // not one of the enum's values
        #"{"type":"post","feeds":["user:a"],"custom":[1]}"#,
        #"["type"]"#,
    ]

    @Test(arguments: common) func aCommonCreateReadsAsJSONDecoderReadsIt(body: String) throws {
        let fast = try #require(try Request(common: try JSONValue(parsing: body)))
        let reference = try JSONDecoder().decode(Request.self, from: Data(body.utf8))
        var comparable = fast
        comparable.custom = reference.custom
        #expect(comparable == reference)
        #expect(
            try fast.custom.map { try FreeForm.object($0.additionalProperties) }
                == reference.custom.map { try FreeForm.object($0.additionalProperties) })
    }

    @Test(arguments: others) func anythingElseIsLeftToJSONDecoder(body: String) throws {
        #expect(try Request(common: try JSONValue(parsing: body)) == nil)
    }
}
