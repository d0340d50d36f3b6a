import FeedsCore
import FeedsServer
import FeedsTestSupport
import Foundation
import Synchronization
import Testing

/// Reads on a real streaming replica (scripts/with-test-replica.sh), its apply delayed or the
/// replica stopped by the tests: one at a time, as they share the replica.
@Suite(.serialized) struct ReadReplicaTests {
    /// A replica held an hour behind serves a reader who did not write, so they miss the new post;
    /// its writer reads it at once, from the primary; a feed the replica lacks is read on the primary.
    @Test func readersWhoDidNotWriteGoToTheReplicaAndWritersReadTheirWrites() async throws {
        try await Self.replica("delay", "0")
        try await TestServer.run(replicated: true, configure: Self.generousLag) { server in
            let first = try #require(try await server.addActivity(as: "alice", text: "first")["id"].string)
            // Once the replica has replayed it, Bob's reads are the replica's.
            try await eventually("the replica answers bob") {
                let before = try await Self.replicaReads(server)
                let read = try await server.api(.GET, "/feeds/activities/\(first)", as: "bob")
                let after = try await Self.replicaReads(server)
                return read.status == 200 && after > before
            }
            // The lag an operator watches, once a poll has measured it.
            try await eventually("the replica's lag is on /metrics") {
                try await server.send(.GET, "/metrics").text.contains("feeds_replica_lag_seconds{replica=")
            }
            try await Self.replica("delay", "1h")
            defer { Task { try? await Self.replica("delay", "0") } }
            let second = try #require(try await server.addActivity(as: "alice", text: "second")["id"].string)
            // Alice reads her post at once, by id, in queries and on her feed's page.
            #expect(try await server.api(.GET, "/feeds/activities/\(second)", as: "alice").status == 200)
            let query = try await server.api(
                .POST, "/feeds/activities/query", as: "alice", json: #"{"filter":{"feeds":{"$in":["user:alice"]}}}"#)
            #expect(query.body["activities"].array.compactMap { $0["id"].string } == [second, first])
            let page = try await server.api(.POST, "/feeds/feed_groups/user/feeds/alice", as: "alice", json: "{}")
            #expect(page.body["activities"].array.compactMap { $0["id"].string } == [second, first])
            // Bob is answered by the replica, which has not applied it: proof of where he reads.
            let before = try await Self.replicaReads(server)
            expectAPIError(try await server.api(.GET, "/feeds/activities/\(second)", as: "bob"), status: 404, code: 16)
            #expect(try await Self.replicaReads(server) > before)
            // A feed made since: the replica does not have it, the primary does, and Bob reads it.
            #expect(try await server.api(.POST, "/feeds/feed_groups/user/feeds/carol", as: "carol", json: "{}").status == 201)
            let carols = try await server.api(.POST, "/feeds/feed_groups/user/feeds/carol", as: "bob", json: "{}")
            #expect(carols.status == 201, "\(carols.text)")
            #expect(carols.body["feed"]["feed"].string == "user:carol")
            // Once the replica applies what it held, Bob reads the post there too.
            try await Self.replica("delay", "0")
            try await eventually("bob reads the second post") {
                try await server.api(.GET, "/feeds/activities/\(second)", as: "bob").status == 200
            }
        }
    }

    /// 32 users at once post, react and comment, each reading back at once what they wrote
    /// (by id, in a query, on their feed, in the comment thread) while the replica applies
    /// everything 300 ms late; readers who did not write keep the replica busy meanwhile.
    @Test func nobodyMissesTheirOwnWritesAtC32WithTheReplicaBehind() async throws {
        try await Self.replica("delay", "300ms")
        defer { Task { try? await Self.replica("delay", "0") } }
        try await TestServer.run(replicated: true) { server in
            _ = try await server.addActivity(as: "seed", text: "for the readers")
            let before = try await Self.replicaReads(server)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for user in 0..<32 {
                    group.addTask {
                        if user % 4 == 3 { return try await Self.readWithoutWriting(server, as: "reader\(user)") }
                        for round in 0..<4 { try await Self.writeAndReadBack(server, as: "writer\(user)", round: round) }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await Self.replicaReads(server) > before)
        }
    }

    /// The replica stops while readers and writers are busy, and starts again: every request is
    /// answered, the replica's share by the primary meanwhile, and reads return to it after.
    @Test func aReplicaStoppedMidRunCostsNoRequest() async throws {
        try await Self.replica("delay", "0")
        try await TestServer.run(replicated: true) { server in
            let seed = try #require(try await server.addActivity(as: "seed", text: "read me")["id"].string)
            try await eventually("the replica has the seed") {
                try await server.api(.GET, "/feeds/activities/\(seed)", as: "reader").status == 200
            }
            // Stopped a quarter of the way in, with requests in flight on it.
            let rounds = Rounds()
            let stopped = Task {
                while rounds.done.load(ordering: .relaxed) < 48 { try await Task.sleep(for: .milliseconds(10)) }
                try await Self.replica("stop")
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for user in 0..<16 {
                    group.addTask {
                        for round in 0..<12 {
                            defer { rounds.done.add(1, ordering: .relaxed) }
                            if user % 2 == 0 {
                                try await Self.writeAndReadBack(server, as: "writer\(user)", round: round)
                            } else {
                                let read = try await server.api(.GET, "/feeds/activities/\(seed)", as: "reader\(user)")
                                #expect(read.status == 200, "\(read.text)")
                                let page = try await server.api(
                                    .POST, "/feeds/feed_groups/user/feeds/seed", as: "reader\(user)", json: "{}")
                                #expect(page.status == 201, "\(page.text)")
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await stopped.value
            try await Self.replica("start")
            try await eventually("reads return to the replica") {
                let before = try await Self.replicaReads(server)
                _ = try await server.api(.GET, "/feeds/activities/\(seed)", as: "reader")
                return try await Self.replicaReads(server) > before
            }
        }
    }

    // MARK: - Steps

    final class Rounds: Sendable {
        let done = Atomic(0)
    }

    /// A post, a reaction and a comment, each read back at once by their writer.
    static func writeAndReadBack(_ server: TestServer, as user: String, round: Int) async throws {
        let id = try #require(try await server.addActivity(as: user, text: "round \(round)")["id"].string)
        let read = try await server.api(.GET, "/feeds/activities/\(id)", as: user)
        #expect(read.status == 200, "\(user) missed their post: \(read.text)")
        let page = try await server.api(.POST, "/feeds/feed_groups/user/feeds/\(user)", as: user, json: "{}")
        #expect(page.body["activities"].array.count == round + 1, "\(user)'s feed: \(page.text)")
        let query = try await server.api(
            .POST, "/feeds/activities/query", as: user, json: #"{"filter":{"user_id":"\#(user)"}}"#)
        #expect(query.body["activities"].array.first?["id"].string == id, "\(user)'s query: \(query.text)")
        let like = try await server.api(.POST, "/feeds/activities/\(id)/reactions", as: user, json: #"{"type":"like"}"#)
        #expect(like.status == 201, "\(like.text)")
        let liked = try await server.api(.GET, "/feeds/activities/\(id)", as: user)
        #expect(liked.body["activity"]["reaction_count"].int == 1, "\(user)'s like: \(liked.text)")
        let comment = try await server.api(
            .POST, "/feeds/comments", as: user, json: #"{"object_id":"\#(id)","object_type":"activity","comment":"mine"}"#)
        #expect(comment.status == 201, "\(comment.text)")
        let thread = try await server.api(.GET, "/feeds/comments", as: user, query: "&object_id=\(id)&object_type=activity")
        #expect(thread.body["comments"].array.count == 1, "\(user)'s thread: \(thread.text)")
    }

    /// Reads of the seed's feed by someone who never writes: the replica's, when it may answer.
    static func readWithoutWriting(_ server: TestServer, as user: String) async throws {
        for _ in 0..<16 {
            let page = try await server.api(.POST, "/feeds/feed_groups/user/feeds/seed", as: user, json: "{}")
            #expect(page.status == 201, "\(page.text)")
        }
    }

    /// Reads answered by a replica so far, in this process (`/metrics`).
    static func replicaReads(_ server: TestServer) async throws -> Double {
        let metrics = try await server.send(.GET, "/metrics").text
        let line = metrics.split(separator: "\n").first { $0.hasPrefix(#"feeds_reads_total{on="replica"}"#) }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } ?? 0
    }

    /// The lag bound far past any pause of a busy machine: the replica held back stays eligible.
    @Sendable static func generousLag(_ configuration: inout FeedsConfiguration) {
        configuration.readMaxLag = .seconds(600)
        configuration.readPollInterval = .milliseconds(50)
    }

    /// Runs the replica's control script (`stop`, `start`, `delay 300ms`).
    static func replica(_ arguments: String...) async throws {
        guard let control = ProcessInfo.processInfo.environment["FEEDS_TEST_REPLICA_CONTROL"] else {
            throw TestDatabase.Unavailable(variable: "FEEDS_TEST_REPLICA_CONTROL")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: control)
        process.arguments = arguments
        try process.run()
        try await hangGuard("replica \(arguments.joined(separator: " "))", seconds: 120) {
            while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(process.terminationStatus == 0, "replica \(arguments.joined(separator: " ")) failed")
    }
}
