import FeedsCore

/// The real-time half as the API uses it: where writes send their events, and where watch
/// requests go (this node's hub when it holds the connection, else the node that does).
package struct Realtime: Sendable {
    package let hub: RealtimeHub
    package let publisher: any EventPublisher
    /// Asks every node to start (or stop) a watch for a connection this node does not hold.
    package let forwardWatch: @Sendable (_ connectionID: String, _ fid: String, _ userID: String, _ on: Bool) async throws -> Void

    package init(
        hub: RealtimeHub, publisher: any EventPublisher,
        forwardWatch:
            @escaping @Sendable (_ connectionID: String, _ fid: String, _ userID: String, _ on: Bool) async throws -> Void
    ) {
        (self.hub, self.publisher, self.forwardWatch) = (hub, publisher, forwardWatch)
    }

    /// Starts (or stops) sending `fid`'s events to the socket `connectionID` of the request's
    /// user, who was found allowed to read the feed.
    package func watch(_ fid: String, connectionID: String, principal: Principal, on: Bool = true) async throws {
        guard !connectionID.isEmpty, connectionID.utf8.count <= 100 else {
            throw FeedsError.input("connection_id is 1 to 100 bytes", field: "connection_id")
        }
        guard let user = principal.userID else {
            throw FeedsError.input("watching takes a user's token: the socket is a user's", field: "connection_id")
        }
        switch hub.watch(connectionID: connectionID, fid: fid, userID: user, on: on) {
        case .done: return
        case .notYours: throw FeedsError.notAllowed("connection \(connectionID) is another user's")
        case .tooMany: throw FeedsError.input("a connection watches at most \(RealtimeHub.watchLimit) feeds", field: "watch")
        case .elsewhere: try await forwardWatch(connectionID, fid, user, on)
        }
    }

    /// Ends `userID`'s watches of `fid` on every node, when they may no longer read it.
    package func revoke(_ fid: String, from userID: String) async throws {
        hub.revoke(fid: fid, userID: userID)
        try await forwardWatch(RealtimeHub.everyConnection, fid, userID, false)
    }

    /// Ends every watch of `fid` on every node but `kept`'s (nil: all of them).
    package func revokeAll(_ fid: String, allBut kept: String?) async throws {
        hub.revoke(fid: fid, allBut: kept)
        try await forwardWatch(RealtimeHub.allButConnection, fid, kept ?? "", false)
    }

    package func publish(_ event: FeedEvent) {
        publisher.publish([event])
    }
}
