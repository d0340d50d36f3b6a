import FeedsCore
import FeedsMedia
import Foundation
import Logging
import NIOConcurrencyHelpers

/// GetOG: a page's preview, from this node's memory (`RecentPreviews`), else from the cache in
/// PostgreSQL when it was fetched within a day (and its image is still stored), else fetched
/// (`LinkFetcher`), read (`OpenGraph`), its image stored (`PreviewImages`), and kept.
package struct LinkPreviews: Sendable {
    let store: any LinkPreviewStore
    let fetcher: LinkFetcher
    /// Nil where nothing is stored (the service tests): previews then have no image.
    package let images: PreviewImages?
    let recent: RecentPreviews
    private let signed = SignedThisSecond()
    static let lifetime: TimeInterval = 86_400

    package init(
        store: any LinkPreviewStore, fetcher: LinkFetcher, images: PreviewImages? = nil, recent: RecentPreviews = RecentPreviews()
    ) {
        (self.store, self.fetcher, self.images, self.recent) = (store, fetcher, images, recent)
    }

    package func preview(of url: String, logger: Logger) async throws -> LinkPreview {
        _ = try LinkFetcher.parse(url)
        if let remembered = remembered(url) { return remembered }
        if let cached = try await store.preview(of: url, since: Date().addingTimeInterval(-Self.lifetime), logger: logger),
            try await imageIsKept(cached, logger: logger)
        {
            recent.keep(cached)
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
        var preview = LinkPreview(
            title: graph.title, text: graph.description, imageURL: web(graph.image), authorName: graph.siteName,
            type: graph.type, titleLink: web(graph.url) ?? landed.absoluteString, scrapeURL: url)
        if let image = preview.imageURL, let stored = await images?.store(image, logger: logger) {
            (preview.imageKey, preview.imageType) = (stored.key.rawValue, stored.type)
        }
        try await store.keep(preview, logger: logger)
        recent.keep(preview)
        return preview
    }

    /// The preview of `url` this node read last, if it is still fresh: no query, no suspension.
    package func remembered(_ url: String) -> LinkPreview? { recent[url] }

    /// The signed URLs of a preview's stored image and its thumbnail. A URL names its expiry to
    /// the second, so the URLs signed in one second are the same bytes: they are signed once a
    /// second (signing was a quarter of a cached GetOG's CPU).
    package func imageURLs(of preview: LinkPreview) -> (image: String, thumb: String)? {
        guard let key = preview.imageKey, let type = preview.imageType, let images else { return nil }
        let second = Int(Date().timeIntervalSince1970)
        if let urls = signed.urls(of: key, at: second) { return urls }
        guard let urls = images.urls(key, type: type) else { return nil }
        signed.keep(urls, of: key, at: second)
        return urls
    }

    /// Whether a cached preview's image is still stored (gc deletes an unattached one in time).
    private func imageIsKept(_ preview: LinkPreview, logger: Logger) async throws -> Bool {
        guard let key = preview.imageKey else { return true }
        return try await images?.isKept(key, logger: logger) ?? false
    }
}

/// The image URLs signed in the current second, by image key; a new second starts empty, so it
/// holds no more than the previews read in one second.
private final class SignedThisSecond: Sendable {
    private let state = NIOLockedValueBox((second: 0, urls: [String: (image: String, thumb: String)]()))

    func urls(of key: String, at second: Int) -> (image: String, thumb: String)? {
        state.withLockedValue { $0.second == second ? $0.urls[key] : nil }
    }

    func keep(_ urls: (image: String, thumb: String), of key: String, at second: Int) {
        state.withLockedValue { state in
            if state.second != second { state = (second, [:]) }
            state.urls[key] = urls
        }
    }
}
