import FeedsAPI
import FeedsCore
import FeedsWire

/// The feed view calls: server-side only, as on Stream. A read uses a view with
/// GetOrCreateFeed's `view` (`FeedPageRoutes`).
extension FeedsAPIImplementation {
    func listFeedViews(_ input: Operations.ListFeedViews.Input) async throws -> Operations.ListFeedViews.Output {
        let request = try viewsRequest
        let views = try await feedViews.views(logger: request.logger)
        let wire = try Dictionary(uniqueKeysWithValues: views.map { ($0.id, try Wire.feedView($0)) })
        return .ok(.init(body: .json(.init(duration: request.duration, views: .init(additionalProperties: wire)))))
    }

    func createFeedView(_ input: Operations.CreateFeedView.Input) async throws -> Operations.CreateFeedView.Output {
        let request = try viewsRequest
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let view = try FeedView(id: body.id, selectors: try body.selections ?? [], ranking: try body.rankingConfig)
        let (made, _) = try await feedViews.create(view, reuse: false, logger: request.logger)
        return .created(.init(body: .json(.init(duration: request.duration, feedView: try Wire.feedView(made)))))
    }

    func getFeedView(_ input: Operations.GetFeedView.Input) async throws -> Operations.GetFeedView.Output {
        let request = try viewsRequest
        guard let view = try await feedViews.view(input.path.id, logger: request.logger) else {
            throw FeedsError.notFound("feed view \(input.path.id) does not exist")
        }
        return .ok(.init(body: .json(.init(duration: request.duration, feedView: try Wire.feedView(view)))))
    }

    func getOrCreateFeedView(_ input: Operations.GetOrCreateFeedView.Input) async throws -> Operations.GetOrCreateFeedView.Output
    {
        let request = try viewsRequest
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let view = try FeedView(id: input.path.id, selectors: try body.selections ?? [], ranking: try body.rankingConfig)
        let (found, created) = try await feedViews.create(view, reuse: true, logger: request.logger)
        return .ok(
            .init(body: .json(.init(duration: request.duration, feedView: try Wire.feedView(found), wasCreated: created))))
    }

    func updateFeedView(_ input: Operations.UpdateFeedView.Input) async throws -> Operations.UpdateFeedView.Output {
        let request = try viewsRequest
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let ranking: Ranking?? = body.ranking == nil ? .none : .some(try body.rankingConfig)
        let view = try await feedViews.update(
            input.path.id, selectors: try body.selections, ranking: ranking, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration, feedView: try Wire.feedView(view)))))
    }

    func deleteFeedView(_ input: Operations.DeleteFeedView.Input) async throws -> Operations.DeleteFeedView.Output {
        let request = try viewsRequest
        try await feedViews.delete(input.path.id, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }

    private var viewsRequest: AuthenticatedRequest {
        get throws { try serverRequest("feed views are configured server-side") }
    }
}
