/// What QueryPolls asks for: polls filtered on `id`, `created_by_id` and `is_closed`, newest first
/// unless `sort` says otherwise. A user sees the polls they made and those on activities they may read.
public struct PollQuery: Sendable {
    public var ids: [String]?
    public var creators: [String]?
    public var isClosed: Bool?
    public var page: KeysetPage

    static let cursorKind = "p"

    public init(filter: JSONObject?, sort: [(field: String?, direction: Int?)], limit: Int?, next: String?, prev: String?)
        throws(FeedsError)
    {
        page = try KeysetPage(sort: sort, limit: limit, next: next, prev: prev, kind: Self.cursorKind, keyCount: 1, what: "polls")
        for (name, condition) in (filter ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch name {
            case "id": ids = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "created_by_id": creators = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "is_closed":
                guard case .bool(let closed) = condition.flatMapEquality() else {
                    throw .input("is_closed is filtered with true or false ($eq)", field: "filter.is_closed")
                }
                isClosed = closed
            default: throw .input("filtering polls on \"\(name)\" is not supported (id, created_by_id, is_closed)", field: "filter.\(name)")
            }
        }
    }

    public func cursor(after poll: Poll) -> String {
        KeysetCursor(ascending: page.ascending, micros: poll.createdAt.microsecondsSince1970, keys: [poll.id]).token(kind: Self.cursorKind)
    }
}

/// What QueryPollVotes asks for: a poll's votes filtered on `option_id`, `user_id` and
/// `is_answer`, newest first unless `sort` says otherwise.
public struct PollVoteQuery: Sendable {
    public var pollID: String
    public var optionIDs: [String]?
    public var userIDs: [String]?
    public var isAnswer: Bool?
    public var page: KeysetPage

    static let cursorKind = "v"

    public init(
        pollID: String, filter: JSONObject?, sort: [(field: String?, direction: Int?)], limit: Int?, next: String?, prev: String?
    ) throws(FeedsError) {
        self.pollID = pollID
        page = try KeysetPage(sort: sort, limit: limit, next: next, prev: prev, kind: Self.cursorKind, keyCount: 1, what: "votes")
        for (name, condition) in (filter ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch name {
            case "option_id": optionIDs = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "user_id": userIDs = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "is_answer":
                guard case .bool(let answer) = condition.flatMapEquality() else {
                    throw .input("is_answer is filtered with true or false ($eq)", field: "filter.is_answer")
                }
                isAnswer = answer
            default: throw .input("filtering votes on \"\(name)\" is not supported (option_id, user_id, is_answer)", field: "filter.\(name)")
            }
        }
    }

    public func cursor(after vote: PollVote) -> String {
        KeysetCursor(ascending: page.ascending, micros: vote.createdAt.microsecondsSince1970, keys: [vote.id]).token(kind: Self.cursorKind)
    }
}

extension JSONValue {
    /// `x` or `{"$eq": x}`: the value compared with.
    fileprivate func flatMapEquality() -> JSONValue? {
        if case .object(let condition) = self {
            guard condition.count == 1, let value = condition["$eq"] else { return nil }
            return value
        }
        return self
    }
}
