import AsyncHTTPClient
import NIOCore

/// Who follows whom in a `timeline` run: every user's timeline follows the feed of user 0 (an
/// author everyone reads) and the feeds of the next users after its own, `perUser` feeds in all;
/// so most feeds have a few followers and one has them all.
struct FollowGraph: Sendable {
    let users: Int
    let perUser: Int

    init(users: Int, perUser: Int = 10) {
        self.users = users
        self.perUser = min(perUser, users - 1)
    }

    /// The users whose `user` feeds user `reader`'s timeline follows.
    func followed(by reader: Int) -> [Int] {
        guard perUser > 0 else { return [] }
        var followed = reader == 0 ? [] : [0]
        var next = reader
        while followed.count < perUser {
            next = (next + 1) % users
            if next != reader && next != 0 { followed.append(next) }
        }
        return followed
    }

    /// The readers whose timelines follow user `author`'s feed.
    func followers(of author: Int) -> [Int] {
        (0..<users).filter { followed(by: $0).contains(author) }
    }

    /// Creates every user's `user` and `timeline` feeds, then each timeline's follows (one
    /// FollowBatch per reader, as the reader), before the clock starts. Following again is the
    /// same follow, so a second run on the same users reuses the graph.
    func build(_ workload: Workload, client: HTTPClient, concurrency: Int, timeout: TimeAmount) async throws {
        let failures = Shared<[String]>([])
        for phase in 0..<2 {
            let next = Counter()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<min(concurrency, users) {
                    group.addTask {
                        while true {
                            let reader = next.next()
                            guard reader < users else { return }
                            let id = workload.options.userID(reader)
                            let requests =
                                phase == 0
                                ? ["user", "timeline"].map { (path: "/feeds/feed_groups/\($0)/feeds/\(id)", body: "{}") }
                                : [(path: "/feeds/follows/batch", body: follows(of: reader, workload))]
                            for (path, body) in requests {
                                var request = workload.apiRequest(path, user: reader)
                                request.headers.add(name: "Content-Type", value: "application/json")
                                request.body = .bytes(ByteBuffer(string: body))
                                do {
                                    let response = try await client.execute(request, timeout: timeout)
                                    let reply = try await response.body.collect(upTo: 16 << 20)
                                    if response.status.code != 201 {
                                        failures.withLock { $0.append("\(path): HTTP \(response.status.code) \(String(buffer: reply).prefix(200))") }
                                    }
                                } catch {
                                    failures.withLock { $0.append("\(path): \(error)") }
                                }
                            }
                        }
                    }
                }
            }
            if let first = failures.withLock({ $0.first }) {
                throw LoadTestError("setting up the follow graph failed: \(first)")
            }
        }
    }

    private func follows(of reader: Int, _ workload: Workload) -> String {
        let source = "timeline:\(workload.options.userID(reader))"
        let follows = followed(by: reader).map { #"{"source":"\#(source)","target":"user:\#(workload.options.userID($0))"}"# }
        return #"{"follows":[\#(follows.joined(separator: ","))]}"#
    }
}
