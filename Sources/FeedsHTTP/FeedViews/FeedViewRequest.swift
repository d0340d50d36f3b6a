import FeedsAPI
import FeedsCore
import FeedsWire
import Foundation
import OpenAPIRuntime

/// CreateFeedView, GetOrCreateFeedView and UpdateFeedView carry the same parts; each reads them
/// here. What this server does not apply (aggregation, selectors' `sort` and `params`, the
/// `interest` ranking, other selector types) is refused, never dropped.
protocol FeedViewRequest {
    var activitySelectors: [Components.Schemas.ActivitySelectorConfig]? { get }
    var aggregation: Components.Schemas.AggregationConfig? { get }
    var ranking: Components.Schemas.RankingConfig? { get }
}

extension Components.Schemas.CreateFeedViewRequest: FeedViewRequest {}
extension Components.Schemas.GetOrCreateFeedViewRequest: FeedViewRequest {}
extension Components.Schemas.UpdateFeedViewRequest: FeedViewRequest {}

extension FeedViewRequest {
    /// The selectors given, read; nil when none were sent.
    var selections: [ActivitySelection]? {
        get throws {
            if aggregation != nil {
                throw FeedsError.input("feed views do not aggregate on this server", field: "aggregation")
            }
            return try ViewInputs.selections(activitySelectors)
        }
    }

    /// The ranking given, read; nil when none was sent.
    var rankingConfig: Ranking? {
        get throws { try ViewInputs.ranking(ranking) }
    }
}
