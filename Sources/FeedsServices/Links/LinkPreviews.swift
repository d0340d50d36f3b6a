import FeedsCore
import FeedsMedia
import Foundation
import Logging

/// GetOG: a page's preview, from the cache when it was fetched within a day, else fetched
/// (`LinkFetcher`) and read (`OpenGraph`), and kept.
package struct LinkPreviews: Sendable {
    let store: any LinkPreviewStore
    let fetcher: LinkFetcher
    static let lifetime: TimeInterval = 86_400

    package init(store: any LinkPreviewStore, fetcher: LinkFetcher) {
        (self.store, self.fetcher) = (store, fetcher)
    }

    package func preview(of url: String, logger: Logger) async throws -> LinkPreview {
        _ = try LinkFetcher.parse(url)
        if let cached = try await store.preview(of: url, since: Date().addingTimeInterval(-Self.lifetime), logger: logger) {
            return cached
        }
        let (html, landed) = try await fetcher.page(url)
        let graph = OpenGraph.parse(html)
        // Only web URLs are passed on: an image at `javascript:` or `file:` is no image.
        func web(_ text: String?) -> String? {
            guard let text, let absolute = URL(string: text, relativeTo: landed)?.absoluteURL,
                let scheme = absolute.scheme?.lowercased(), scheme == "http" || scheme == "https"
            else { return nil }
            return absolute.absoluteString
        }
        let preview = LinkPreview(
            title: graph.title, text: graph.description, imageURL: web(graph.image), authorName: graph.siteName,
            type: graph.type, titleLink: web(graph.url) ?? landed.absoluteString, scrapeURL: url)
        try await store.keep(preview, logger: logger)
        return preview
    }
}
