import FeedsCore

/// Polls as `Wire.poll`'s generated types encode them, field for field (`JSONWriterTests`): a
/// page of 25 activities with polls spent 43% of its CPU in `JSONEncoder` writing them.
extension JSONWriter {
    /// `users` holds the users already written in this response, as `activity`'s does.
    package mutating func poll(_ poll: Poll, users: inout [String: [UInt8]]) {
        let settings = poll.settings
        object { json in
            json.field("allow_answers", settings.allowAnswers)
            json.field("allow_user_suggested_options", settings.allowUserSuggestedOptions)
            json.field("answers_count", poll.answersCount)
            json.field("created_at", poll.createdAt)
            json.key("created_by")
            json.user(poll.createdBy, written: &users)
            json.field("created_by_id", poll.createdBy.id)
            json.key("custom")
            json.object(settings.custom)
            json.field("description", settings.description)
            json.field("enforce_unique_vote", settings.enforceUniqueVote)
            json.field("id", poll.id)
            json.field("is_closed", settings.isClosed)
            json.key("latest_answers")
            json.array(poll.latestAnswers) { $0.pollVote($1, users: &users) }
            json.key("latest_votes_by_option")
            json.object { json in
                for (option, votes) in poll.latestVotesByOption {
                    json.key(option)
                    json.array(votes) { $0.pollVote($1, users: &users) }
                }
            }
            if let most = settings.maxVotesAllowed { json.field("max_votes_allowed", most) }
            json.field("name", settings.name)
            json.key("options")
            json.array(poll.options) { json, option in
                json.object { json in
                    json.key("custom")
                    json.object(option.custom)
                    json.field("id", option.id)
                    json.field("text", option.text)
                }
            }
            json.key("own_votes")
            json.array(poll.ownVotes) { $0.pollVote($1, users: &users) }
            json.field("updated_at", poll.updatedAt)
            json.field("vote_count", poll.voteCount)
            json.key("vote_counts_by_option")
            json.object { json in
                for (option, count) in poll.voteCountsByOption {
                    json.key(option)
                    json.number(count)
                }
            }
            json.field("voting_visibility", settings.votingVisibility.rawValue)
        }
    }

    /// A vote; an answer has no option (`option_id` ""), an anonymous vote no voter.
    package mutating func pollVote(_ vote: PollVote, users: inout [String: [UInt8]]) {
        object { json in
            json.field("answer_text", vote.answerText)
            json.field("created_at", vote.createdAt)
            json.field("id", vote.id)
            json.field("is_answer", vote.isAnswer)
            json.field("option_id", vote.optionID ?? "")
            json.field("poll_id", vote.pollID)
            json.field("updated_at", vote.updatedAt)
            if let user = vote.user {
                json.key("user")
                json.user(user, written: &users)
                json.field("user_id", user.id)
            }
        }
    }
}
