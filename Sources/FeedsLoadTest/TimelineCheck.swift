import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat

/// Finds every acknowledged post in the timeline of every follower of its author, reading each
/// timeline as its reader would. Copies arrive after a post commits (fan-out), so a timeline
/// still missing posts is read again, until `patience` has passed: what is still missing then
/// is lost for that follower.
struct TimelineCheck: Sendable {
    let workload: Workload
    let client: HTTPClient
    let graph: FollowGraph
    let concurrency: Int
    let timeout: TimeAmount
    let patience: Duration

    struct Result: Sendable, Equatable {
        /// Post and follower pairs looked for.
        var checked = 0
        var missing = 0
        var examples: [String] = []
    }

    func run(_ acknowledged: [Acknowledged]) async -> Result {
        var byAuthor: [Int: [String]] = [:]
        for case .activity(let id, let user, _, _) in acknowledged { byAuthor[user, default: []].append(id) }
        var missing: [Int: Set<String>] = [:]
        for reader in 0..<graph.users {
            let expected = Set(graph.followed(by: reader).flatMap { byAuthor[$0] ?? [] })
            if !expected.isEmpty { missing[reader] = expected }
        }
        var result = Result(checked: missing.values.reduce(0) { $0 + $1.count })
        let deadline = ContinuousClock.now + patience
        while !missing.isEmpty {
            missing = await pass(missing)
            if missing.isEmpty || ContinuousClock.now >= deadline { break }
            try? await Task.sleep(for: .milliseconds(500))
        }
        for (reader, ids) in missing.sorted(by: { $0.key < $1.key }) {
            result.missing += ids.count
            for id in ids.sorted().prefix(10 - result.examples.count) {
                result.examples.append("activity \(id): missing from timeline:\(workload.options.userID(reader))")
            }
        }
        return result
    }

    /// Reads the timelines of `missing` side by side; returns what each still lacks.
    private func pass(_ missing: [Int: Set<String>]) async -> [Int: Set<String>] {
        let readers = Array(missing.keys)
        let next = Counter()
        let left = Shared<[Int: Set<String>]>([:])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(concurrency, readers.count) {
                group.addTask {
                    while true {
                        let index = next.next()
                        guard index < readers.count else { return }
                        let reader = readers[index]
                        let lacking = await read(reader, lookingFor: missing[reader] ?? [])
                        if !lacking.isEmpty { left.withLock { $0[reader] = lacking } }
                    }
                }
            }
        }
        return left.withLock { $0 }
    }

    /// Pages through `reader`'s timeline, newest first, until every id sought has been seen or
    /// the timeline ends; returns the ids not seen (all of them when a read fails).
    private func read(_ reader: Int, lookingFor sought: Set<String>) async -> Set<String> {
        var lacking = sought
        var cursor: String?
        repeat {
            var request = workload.apiRequest("/feeds/feed_groups/timeline/feeds/\(workload.options.userID(reader))", user: reader)
            request.headers.add(name: "Content-Type", value: "application/json")
            let after = cursor.map { #","next":"\#($0)""# } ?? ""
            request.body = .bytes(ByteBuffer(string: #"{"limit":100\#(after)}"#))
            guard let response = try? await client.execute(request, timeout: timeout),
                let body = try? await response.body.collect(upTo: 64 << 20), response.status.code == 201,
                let page = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any]
            else { return sought }
            for activity in page["activities"] as? [[String: Any]] ?? [] {
                if let id = activity["id"] as? String { lacking.remove(id) }
            }
            cursor = page["next"] as? String
        } while cursor != nil && !lacking.isEmpty
        return lacking
    }
}
