import FeedsAPI
import FeedsCore

/// GetOG: a link's preview, for any signed-in caller; the fetch's rules are `LinkFetcher`'s, and
/// its image is the server's stored copy (`PreviewImages`).
extension FeedsAPIImplementation {
    func getOG(_ input: Operations.GetOG.Input) async throws -> Operations.GetOG.Output {
        let request = try request
        let preview = try await linkPreviews.preview(of: input.query.url, logger: request.logger)
        let image = linkPreviews.imageURLs(of: preview)
        return .ok(
            .init(
                body: .json(
                    .init(
                        authorName: preview.authorName, custom: .init(), duration: request.duration, imageUrl: image?.image,
                        ogScrapeUrl: preview.scrapeURL, text: preview.text, thumbUrl: image?.thumb, title: preview.title,
                        titleLink: preview.titleLink, _type: preview.type))))
    }
}
