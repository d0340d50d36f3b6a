import FeedsCore
import Testing

@testable import FeedsServices

/// Which URL of a text is previewed, and how previews follow the text.
@Suite struct LinkEnrichmentTests {
    @Test func theFirstWebURLWithoutTheSentenceAroundIt() {
        #expect(LinkEnrichment.firstURL(in: "see https://example.com/a?b=1. and http://x.org") == "https://example.com/a?b=1")
        #expect(LinkEnrichment.firstURL(in: "(HTTPS://Example.com/path), ok") == "HTTPS://Example.com/path")
        #expect(LinkEnrichment.firstURL(in: "\"http://quoted.example\"") == "http://quoted.example")
        for text in [nil, "", "no links here", "ftp://example.com", "javascript:alert(1)", "http://", "https://..."] {
            #expect(LinkEnrichment.firstURL(in: text) == nil, "\(text ?? "nil")")
        }
        #expect(LinkEnrichment.firstURL(in: "https://a.com/" + String(repeating: "x", count: 3000)) == nil)
    }

    @Test func previewsFollowTheText() {
        func og(_ url: String) -> StoredAttachment {
            StoredAttachment(payload: ["og_scrape_url": .string(url), "title": .string(url)])
        }
        let image = StoredAttachment(payload: ["type": .string("image"), "image_url": .string("https://cdn/x.png")])
        // A preview for a link the text dropped goes; one for the link it has is kept, not doubled.
        let edited = LinkEnrichment.enriched([image, og("https://old.example")], text: "now https://new.example", preview: og("https://new.example"))
        #expect(edited == [image, og("https://new.example")])
        #expect(LinkEnrichment.enriched(edited, text: "now https://new.example", preview: og("https://new.example")) == edited)
        #expect(LinkEnrichment.enriched(edited, text: nil, preview: nil) == [image])
        let full = Array(repeating: image, count: ActivityDraft.maxAttachments)
        #expect(LinkEnrichment.enriched(full, text: "https://new.example", preview: og("https://new.example")) == full)
    }
}
