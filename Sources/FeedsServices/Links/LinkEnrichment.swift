import FeedsCore
import Foundation
import Logging

/// URL enrichment of a text (an activity's, unless `skip_enrich_url`): the first web URL in it
/// becomes a link-preview attachment (`og_scrape_url`, `title`, `title_link`, `text`, `author_name`,
/// and `image_url` and `thumb_url` of the server's copy of its image), fetched under
/// `LinkFetcher`'s rules and cached as GetOG's. Previews follow the text: an edit drops those whose
/// URL the text no longer holds. A page that cannot be previewed costs the post nothing: it goes
/// without.
package struct LinkEnrichment: Sendable {
    let previews: LinkPreviews

    package init(previews: LinkPreviews) { self.previews = previews }

    /// The preview of the first web URL in `text`, as an attachment; nil when there is none or
    /// its page cannot be read.
    package func preview(for text: String?, logger: Logger) async -> StoredAttachment? {
        guard let url = Self.firstURL(in: text) else { return nil }
        do {
            let preview = try await previews.preview(of: url, logger: logger)
            var payload: JSONObject = ["og_scrape_url": .string(url), "custom": .object([:])]
            let fields: [(String, String?)] = [
                ("title", preview.title), ("title_link", preview.titleLink), ("text", preview.text),
                ("author_name", preview.authorName),
            ]
            for (name, value) in fields { if let value { payload[name] = .string(value) } }
            // The image is the stored copy, held by the activity as an upload is (its URLs signed on
            // every read), if gc has not claimed it since the preview was remembered.
            if let key = preview.imageKey, let type = preview.imageType,
                try await previews.images?.isKept(key, logger: logger) == true
            {
                payload["mime_type"] = .string(type)
                return StoredAttachment(payload: payload, objectKey: ObjectKey(rawValue: key))
            }
            return StoredAttachment(payload: payload)
        } catch {
            logger.info("a link in a text was not previewed", metadata: ["url": "\(url)", "error": "\(error)"])
            return nil
        }
    }

    /// `attachments` with the previews of URLs no longer in `text` left out and `preview` added
    /// unless one of its URL is there (an edit screen sends what a read returned), within the
    /// activity's bound.
    package static func enriched(_ attachments: [StoredAttachment], text: String?, preview: StoredAttachment?)
        -> [StoredAttachment]
    {
        var kept = attachments.filter { attachment in
            guard case .string(let url) = attachment.payload["og_scrape_url"] else { return true }
            return text?.contains(url) == true
        }
        if let preview, kept.count < ActivityDraft.maxAttachments,
            !kept.contains(where: { $0.payload["og_scrape_url"] == preview.payload["og_scrape_url"] })
        {
            kept.append(preview)
        }
        return kept
    }

    /// The first http or https URL in `text`, without the punctuation that ends a sentence around it.
    static func firstURL(in text: String?) -> String? {
        guard let text, let range = text.range(of: #"https?://[^\s<>"'`]+"#, options: [.regularExpression, .caseInsensitive])
        else { return nil }
        var url = text[range]
        while let last = url.last, ".,;:!?)]}".contains(last) { url = url.dropLast() }
        guard url.utf8.count <= LinkFetcher.maxURLBytes, let host = URL(string: String(url))?.host,
            host.contains(where: { $0 != "." })
        else { return nil }
        return String(url)
    }
}
