import FeedsAPI
import FeedsCore

/// GetOG: a link's preview, for any signed-in caller; the fetch's rules are `LinkFetcher`'s.
extension FeedsAPIImplementation {
    func getOG(_ input: Operations.GetOG.Input) async throws -> Operations.GetOG.Output {
        let request = try request
        let preview = try await linkPreviews.preview(of: input.query.url, logger: request.logger)
        return .ok(
            .init(
                body: .json(
                    .init(
                        authorName: preview.authorName, custom: .init(), duration: request.duration, imageUrl: preview.imageURL,
                        ogScrapeUrl: preview.scrapeURL, text: preview.text, title: preview.title, titleLink: preview.titleLink,
                        _type: preview.type))))
    }
}
