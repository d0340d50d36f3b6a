import Foundation

/// A web page as a link preview shows it (GetOG, Stream's `og` attachment fields).
public struct LinkPreview: Sendable, Equatable, Codable {
    public var title: String?
    public var text: String?
    /// The page's image (`og:image`), as the page names it.
    public var imageURL: String?
    /// Our stored copy of that image (`PreviewImages`), which is what clients are shown: nil when
    /// it could not be fetched or is not an image the app accepts.
    public var imageKey: String?
    /// The stored copy's sniffed type.
    public var imageType: String?
    public var authorName: String?
    public var type: String?
    /// Where the page says it lives (`og:url`), else where the fetch ended.
    public var titleLink: String?
    /// The URL asked for.
    public var scrapeURL: String

    public init(
        title: String? = nil, text: String? = nil, imageURL: String? = nil, authorName: String? = nil, type: String? = nil,
        titleLink: String? = nil, scrapeURL: String
    ) {
        (self.title, self.text, self.imageURL, self.authorName, self.type, self.titleLink, self.scrapeURL) =
            (title, text, imageURL, authorName, type, titleLink, scrapeURL)
    }
}
