import FeedsCore
import FeedsTestSupport
import Testing

extension TestServer {
    /// Adds an activity as `user` and expects 201; returns the activity object. `byServer` posts
    /// it with the server's token for `user`, as into a feed another user owns (a shared room).
    @discardableResult
    func addActivity(
        as user: String, feeds: [String]? = nil, type: String = "post", text: String = "hello", extra: String = "",
        byServer: Bool = false
    ) async throws -> JSONValue {
        let feedList = (feeds ?? ["user:\(user)"]).map { "\"\($0)\"" }.joined(separator: ",")
        let poster = byServer ? #""user_id":"\#(user)","# : ""
        let reply = try await api(
            .POST, "/feeds/activities", as: byServer ? nil : user,
            json: #"{\#(poster)"type":"\#(type)","feeds":[\#(feedList)],"text":"\#(text)"\#(extra.isEmpty ? "" : "," + extra)}"#
        )
        #expect(reply.status == 201, "\(reply.text)")
        return reply.body["activity"]
    }
}

/// Checks the body is Stream's APIError with every required field, and returns it.
@discardableResult
func expectAPIError(
    _ reply: TestServer.Reply, status: Int, code: Int, field: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
) -> JSONValue {
    #expect(reply.status == status, "\(reply.text)", sourceLocation: sourceLocation)
    let body = reply.body
    #expect(body["StatusCode"].int == status, "\(reply.text)", sourceLocation: sourceLocation)
    #expect(body["code"].int == code, "\(reply.text)", sourceLocation: sourceLocation)
    #expect(body["message"].string?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(body["duration"].string?.hasSuffix("ms") == true, sourceLocation: sourceLocation)
    #expect(body["more_info"].string != nil, sourceLocation: sourceLocation)
    #expect(
        body["details"].object == nil && (body["details"] == .array([]) || !body["details"].array.isEmpty),
        sourceLocation: sourceLocation)
    if let field {
        #expect(
            body["exception_fields"][field].string != nil, "expected exception_fields.\(field) in \(reply.text)",
            sourceLocation: sourceLocation)
    }
    return body
}

/// The fields the reference marks required on ActivityResponse and UserResponse.
let requiredActivityFields = [
    "id", "type", "user", "feeds", "visibility", "restrict_replies", "created_at", "updated_at", "attachments",
    "mentioned_users", "custom", "popularity", "score", "comments", "search_data", "filter_tags", "interest_tags",
    "comment_count", "bookmark_count", "share_count", "reaction_count", "latest_reactions", "reaction_groups",
    "own_reactions", "own_bookmarks", "collections", "hidden", "preview",
]
let requiredUserFields = [
    "id", "custom", "language", "role", "teams", "created_at", "updated_at", "banned", "online", "blocked_user_ids",
    "shadow_banned", "invisible",
]

/// `text` with the expiry and signature of its signed URLs set aside: each read signs afresh, and
/// the clock may tick between two of them.
func withoutSignatures(_ text: String) -> String {
    text.replacing(/Expires=\d+&Signature=[A-Za-z0-9_-]+/, with: "Expires=E&Signature=S")
}
