import FeedsAPI
import FeedsCore
import Foundation

extension Wire {
    /// A feed view as Stream's FeedViewResponse.
    package static func feedView(_ view: FeedView) throws -> Components.Schemas.FeedViewResponse {
        .init(
            activitySelectors: try view.selectors.map { selector in
                .init(
                    cutoffTime: selector.cutoffTime.map(WireTime.nanoseconds),
                    cutoffWindow: selector.cutoffWindow.map(DurationText.text),
                    filter: try selector.filter.map { .init(additionalProperties: try FreeForm.containers($0)) },
                    minPopularity: selector.minPopularity.map(Int32.init), _type: selector.kind.rawValue)
            },
            id: view.id, lastUsedAt: view.lastUsedAt.map(WireTime.nanoseconds),
            ranking: try view.ranking.map(ranking))
    }

    /// A selector as a feed group's reply shows it (in the request's shape, as Stream's does).
    package static func selector(_ selector: ActivitySelection) throws -> Components.Schemas.ActivitySelectorConfig {
        .init(
            cutoffTime: selector.cutoffTime.map { RFC3339.string(from: $0) },
            cutoffWindow: selector.cutoffWindow.map(DurationText.text),
            filter: try selector.filter.map { .init(additionalProperties: try FreeForm.containers($0)) },
            minPopularity: selector.minPopularity.map(Int32.init), _type: selector.kind.rawValue)
    }

    /// A ranking as Stream's RankingConfig: the score, its defaults, its decays' parameters.
    package static func ranking(_ ranking: Ranking) throws -> Components.Schemas.RankingConfig {
        .init(
            defaults: .init(additionalProperties: try FreeForm.containers(ranking.defaults.mapValues(JSONValue.number))),
            functions: .init(
                additionalProperties: try FreeForm.containers(
                    Dictionary(
                        uniqueKeysWithValues: ranking.decays.map { function, decay in
                            (
                                function.rawValue,
                                JSONValue.object([
                                    "origin": .string(decay.origin.map { RFC3339.string(from: $0) } ?? "now"),
                                    "scale": .string(DurationText.text(decay.scale)),
                                    "offset": .string(DurationText.text(decay.offset)),
                                    "decay": .string(String(decay.decay)),
                                ])
                            )
                        }))),
            score: ranking.score, _type: .expression)
    }
}
