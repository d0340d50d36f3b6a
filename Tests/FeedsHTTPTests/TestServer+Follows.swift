import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// Helpers for the follow and timeline tests.
extension TestServer {
    /// Creates `fid` as `owner` (GetOrCreateFeed), with `visibility` when given.
    func createFeed(_ fid: String, owner: String, visibility: String? = nil) async throws {
        let parts = fid.split(separator: ":")
        let data = visibility.map { #","data":{"visibility":"\#($0)"}"# } ?? ""
        let reply = try await api(
            .POST, "/feeds/feed_groups/\(parts[0])/feeds/\(parts[1])", as: nil, json: #"{"user_id":"\#(owner)"\#(data)}"#)
        #expect(reply.status == 201, "\(reply.text)")
    }

    /// `POST /feeds/follows` as `user` (nil: the server).
    func follow(_ source: String, _ target: String, as user: String?, extra: String = "") async throws -> Reply {
        try await api(
            .POST, "/feeds/follows", as: user,
            json: #"{"source":"\#(source)","target":"\#(target)"\#(extra.isEmpty ? "" : "," + extra)}"#)
    }

    /// The ids in a feed, newest first, read as `user` a page of `limit` at a time to the end.
    func timeline(_ fid: String, as user: String, limit: Int = 25) async throws -> [String] {
        let parts = fid.split(separator: ":")
        var ids: [String] = []
        var next: String?
        repeat {
            let cursor = next.map { #","next":"\#($0)""# } ?? ""
            let reply = try await api(
                .POST, "/feeds/feed_groups/\(parts[0])/feeds/\(parts[1])", as: user, json: #"{"limit":\#(limit)\#(cursor)}"#)
            #expect(reply.status == 201, "\(reply.text)")
            ids += reply.body["activities"].array.compactMap { $0["id"].string }
            next = reply.body["next"].string
        } while next != nil
        return ids
    }
}
