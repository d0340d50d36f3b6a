import FeedsCore
import Logging

/// Polls' workflow: who may read and change a poll, votes on the activity that carries it, and
/// the `feeds.poll.*` events to that activity's watchers. A poll is read by its maker, the server,
/// and the readers of an activity that carries it; changed by its maker or the server.
package struct Polls<Store: ActivityStore>: Sendable {
    let polls: any PollStore
    let store: Store
    let events: Events<Store>

    package init(polls: any PollStore, store: Store, events: Events<Store>) {
        (self.polls, self.store, self.events) = (polls, store, events)
    }

    /// The poll as `viewer` sees it, with `reader`'s own votes; 404 when there is none or the
    /// viewer may not read it (whether it exists is not told).
    package func poll(_ id: String, viewer: Principal, reader: String?, logger: Logger) async throws -> Poll {
        if let user = viewer.userID, try await polls.mayRead(id, user: user, logger: logger) != true {
            throw FeedsError.notFound("poll \(id) does not exist")
        }
        guard let poll = try await polls.polls([id], viewer: viewer, reader: reader, logger: logger)[id] else {
            throw FeedsError.notFound("poll \(id) does not exist")
        }
        return poll
    }

    /// AddActivity's `poll_id`: a poll the activity's user made (any poll, for the server).
    package func attachable(_ id: String, to user: String, principal: Principal, logger: Logger) async throws -> String {
        guard (1...255).contains(id.utf8.count),
            let poll = try await polls.polls([id], viewer: .server, reader: nil, logger: logger)[id]
        else { throw FeedsError.input("poll_id names no poll", field: "poll_id") }
        guard principal == .server || poll.createdBy.id == user else {
            throw FeedsError.notAllowed("\(user) may attach only the polls they made")
        }
        return id
    }

    package func create(
        id: String?, settings: PollSettings, options: [PollOptionDraft], by user: String, viewer: Principal, logger: Logger
    ) async throws -> Poll {
        let id = try await polls.createPoll(id: id, settings: settings, options: options, by: user, logger: logger)
        return try await poll(id, viewer: viewer, reader: user, logger: logger)
    }

    /// UpdatePoll: settings and options replaced; `feeds.poll.updated` (and `…closed` when it closes).
    package func replace(
        _ id: String, settings: PollSettings, options: [PollOptionDraft], by principal: Principal, reader: String?,
        logger: Logger
    ) async throws -> Poll {
        let before = try await poll(id, viewer: .server, reader: nil, logger: logger).settings
        try await polls.replacePoll(id, settings: settings, options: options, by: principal.userID, logger: logger)
        return try await changed(id, closing: !before.isClosed && settings.isClosed, viewer: principal, reader: reader, logger: logger)
    }

    /// UpdatePollPartial.
    package func change(_ id: String, set: JSONObject, unset: [String], by principal: Principal, reader: String?, logger: Logger)
        async throws -> Poll
    {
        let (before, after) = try await polls.changePoll(id, by: principal.userID, { try $0.apply(set: set, unset: unset) }, logger: logger)
        return try await changed(id, closing: !before.isClosed && after.isClosed, viewer: principal, reader: reader, logger: logger)
    }

    /// DeletePoll; `feeds.poll.deleted` to the activities that carried it.
    package func delete(_ id: String, by principal: Principal, logger: Logger) async throws {
        let poll = try await poll(id, viewer: .server, reader: nil, logger: logger)
        let carriers = try await polls.deletePoll(id, by: principal.userID, logger: logger)
        for activity in try await activities(carriers, logger: logger) { events.poll("feeds.poll.deleted", poll, on: activity) }
    }

    package func addOption(to id: String, _ option: PollOptionDraft, by principal: Principal, logger: Logger) async throws
        -> PollOption
    {
        if let user = principal.userID, try await polls.mayRead(id, user: user, logger: logger) != true {
            throw FeedsError.notFound("poll \(id) does not exist")
        }
        let added = try await polls.addOption(to: id, option, by: principal.userID, logger: logger)
        _ = try await changed(id, closing: false, viewer: .server, reader: nil, logger: logger)
        return added
    }

    package func updateOption(of id: String, _ option: PollOptionDraft, by principal: Principal, logger: Logger) async throws
        -> PollOption
    {
        let updated = try await polls.updateOption(of: id, option, by: principal.userID, logger: logger)
        _ = try await changed(id, closing: false, viewer: .server, reader: nil, logger: logger)
        return updated
    }

    package func deleteOption(of id: String, optionID: String, by principal: Principal, logger: Logger) async throws {
        try await polls.deleteOption(of: id, optionID: optionID, by: principal.userID, logger: logger)
        _ = try await changed(id, closing: false, viewer: .server, reader: nil, logger: logger)
    }

    package func option(_ optionID: String, of id: String, viewer: Principal, logger: Logger) async throws -> PollOption {
        guard let option = try await poll(id, viewer: viewer, reader: nil, logger: logger).options.first(where: { $0.id == optionID })
        else { throw FeedsError.notFound("poll \(id) has no option \(optionID)") }
        return option
    }

    /// CastPollVote, by a reader of the activity that carries the poll; `feeds.poll.vote_casted`
    /// or `…vote_changed` to its watchers (nothing when the vote was there already).
    package func vote(
        on activityID: String, poll id: String, _ choice: VoteChoice, by user: String, principal: Principal, logger: Logger
    ) async throws -> (poll: Poll, vote: PollVote) {
        let activity = try await carrier(activityID, of: id, viewer: principal, logger: logger)
        let (vote, outcome) = try await polls.castVote(on: id, choice, by: user, logger: logger)
        // One read, as the voter sees it: the events show it as everyone sees it (`forEveryone`).
        let poll = try await carried(id, viewer: principal, reader: user, logger: logger)
        switch outcome {
        case .cast: events.poll("feeds.poll.vote_casted", poll, vote: vote, on: activity)
        case .changed: events.poll("feeds.poll.vote_changed", poll, vote: vote, on: activity)
        case .unchanged: break
        }
        return (poll, vote)
    }

    /// DeletePollVote: the voter's own vote, or any for the server; `feeds.poll.vote_removed`.
    package func removeVote(
        on activityID: String, poll id: String, voteID: String, principal: Principal, reader: String?, logger: Logger
    ) async throws -> (poll: Poll, vote: PollVote) {
        let activity = try await carrier(activityID, of: id, viewer: principal, logger: logger)
        let vote = try await polls.removeVote(from: id, voteID: voteID, by: principal.userID, logger: logger)
        let poll = try await carried(id, viewer: principal, reader: reader, logger: logger)
        events.poll("feeds.poll.vote_removed", poll, vote: vote, on: activity)
        return (poll, vote)
    }

    /// QueryPollVotes, for the poll's readers; in an anonymous poll no one but the server filters
    /// on voters, which would tell who voted for what.
    package func votes(_ query: PollVoteQuery, viewer: Principal, logger: Logger) async throws -> (votes: [PollVote], next: String?) {
        let poll = try await poll(query.pollID, viewer: viewer, reader: nil, logger: logger)
        if poll.settings.votingVisibility == .anonymous, viewer != .server, let users = query.userIDs, users != [viewer.userID] {
            throw FeedsError.input("the poll is anonymous: its votes are not filtered on other voters", field: "filter.user_id")
        }
        return try await polls.queryVotes(query, viewer: viewer, logger: logger)
    }

    /// The activity `viewer` may read that carries the poll; 404 otherwise.
    private func carrier(_ activityID: String, of pollID: String, viewer: Principal, logger: Logger) async throws -> Activity {
        guard let activity = try await store.activity(id: activityID, viewer: viewer, logger: logger), activity.pollID == pollID
        else { throw FeedsError.notFound("activity \(activityID) with poll \(pollID) does not exist") }
        return activity
    }

    /// The poll of an activity the viewer was found to read: no second check of who may read it.
    private func carried(_ id: String, viewer: Principal, reader: String?, logger: Logger) async throws -> Poll {
        guard let poll = try await polls.polls([id], viewer: viewer, reader: reader, logger: logger)[id] else {
            throw FeedsError.notFound("poll \(id) does not exist")
        }
        return poll
    }

    /// After a change: `feeds.poll.updated` (and `…closed`) to the activities that carry it.
    private func changed(_ id: String, closing: Bool, viewer: Principal, reader: String?, logger: Logger) async throws -> Poll {
        let everyone = try await poll(id, viewer: .server, reader: nil, logger: logger)
        for activity in try await activities(try await polls.activities(carrying: id, logger: logger), logger: logger) {
            events.poll("feeds.poll.updated", everyone, on: activity)
            if closing { events.poll("feeds.poll.closed", everyone, on: activity) }
        }
        return viewer == .server && reader == nil ? everyone : try await poll(id, viewer: viewer, reader: reader, logger: logger)
    }

    private func activities(_ ids: [String], logger: Logger) async throws -> [Activity] {
        guard !ids.isEmpty else { return [] }
        var query = ActivityQuery(viewer: .server, limit: ids.count)
        query.ids = ids
        query.ownFieldsOf = nil
        return try await store.queryActivities(query, logger: logger).activities
    }
}
