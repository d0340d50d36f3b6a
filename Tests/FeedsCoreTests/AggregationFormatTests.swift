import Foundation
import Testing

@testable import FeedsCore

/// `aggregation.format`: the template subset Stream's docs use, checked when set, rendered per write.
@Suite struct AggregationFormatTests {
    let noon = Date(timeIntervalSince1970: 1_795_780_800)  // 2026-11-27 12:00:00 UTC

    @Test func notificationFeedsGroupByTargetKindAndDay() {
        #expect(
            AggregationFormat.notification.render(type: "reaction", targetID: "a1", userID: "bob", time: noon)
                == "a1_reaction_2026-11-27")
    }

    @Test func everyVariableAndTimeCodeRenders() throws {
        let format = try AggregationFormat(
            #"{{type}}/{{ target_id }}/{{ user_id }}/{{ actor_id }}/{{ time.strftime('%Y%m%d%H%M-%j%%') }}"#)
        #expect(format.render(type: "t", targetID: "x", userID: "u", time: noon) == "t/x/u/u/202611271200-331%")
        let spaced = try AggregationFormat(#"{{ time.strftime(  "%Y-%m" ) }}"#)
        #expect(spaced.render(type: "t", targetID: "x", userID: "u", time: noon) == "2026-11")
    }

    @Test(arguments: [
        "", "plain text", "{{ type", "type }}", "{{ secret }}", "{{ type.__class__ }}", "{{ time.strftime(\"%s\") }}",
        "{{ time.strftime(%Y) }}", "{% for x in y %}{{ type }}", String(repeating: "{{ type }}", count: 30),
        "{{ time.strftime(\"%Y') }}", "{{ time.strftime(\"%Y\" \"%m\") }}", "{{ time.strftime(\"\") + type }}",
        "{{ time.strftime(\"%Y\").upper() }}", "{{ xtime.strftime(\"%Y\") }}", "{{ time.strftime(\") }}",
    ])
    func whatIsNotATemplateOfThisSubsetIsRefused(_ text: String) {
        #expect(throws: FeedsError.self) { try AggregationFormat(text) }
    }
}
