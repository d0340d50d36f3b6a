import FeedsCore
import FeedsRealtime
import FeedsWire

extension Events {
    /// `feeds.poll.*`: the poll as everyone may see it (and the vote, for the vote events), to the
    /// watchers of the activity that carries it who may see that activity.
    package func poll(_ type: String, _ poll: Poll, vote: PollVote? = nil, on activity: Activity) {
        var json = JSONWriter(capacity: 2048)
        json.object { json in
            Self.head(&json, type)
            if let bytes = try? Wire.encoded(poll.forEveryone) {
                json.key("poll")
                json.raw(bytes)
            }
            if let vote, let bytes = try? Wire.encoded(poll.settings.votingVisibility == .anonymous ? vote.withoutVoter : vote) {
                json.key("poll_vote")
                json.raw(bytes)
            }
        }
        realtime.publish(FeedEvent(fids: activity.feeds, onlyFor: Self.audience(activity), payload: json.bytes))
    }
}
