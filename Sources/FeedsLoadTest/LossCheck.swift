import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat

/// Reads every acknowledged write back: an activity by id as its author (same text, same file
/// behind its attachment URL), an upload by its URL (same bytes). A write that is gone, or that
/// comes back different, is lost.
struct LossCheck: Sendable {
    let workload: Workload
    let client: HTTPClient
    let concurrency: Int
    let timeout: TimeAmount

    /// What the check found.
    struct Result: Sendable, Equatable {
        var checked = 0
        var missing = 0
        var different = 0
        /// Reads that kept failing (5xx, no connection): the write cannot be shown to exist.
        var unreadable = 0
        /// The first few lost writes, described.
        var examples: [String] = []

        var lost: Int { missing + different + unreadable }
    }

    private enum Verdict {
        case found, missing, different(String), unreadable(String)
    }

    func run(_ acknowledged: [Acknowledged]) async -> Result {
        let result = Shared(Result())
        let next = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(concurrency, max(1, acknowledged.count)) {
                group.addTask {
                    while true {
                        let index = next.next()
                        guard index < acknowledged.count else { return }
                        let write = acknowledged[index]
                        let verdict = await verify(write)
                        result.withLock { result in
                            result.checked += 1
                            var example: String?
                            switch verdict {
                            case .found: break
                            case .missing:
                                result.missing += 1
                                example = "\(Self.describe(write)): missing"
                            case .different(let why):
                                result.different += 1
                                example = "\(Self.describe(write)): \(why)"
                            case .unreadable(let why):
                                result.unreadable += 1
                                example = "\(Self.describe(write)): unreadable (\(why))"
                            }
                            if let example, result.examples.count < 10 { result.examples.append(example) }
                        }
                    }
                }
            }
        }
        return result.withLock { $0 }
    }

    private func verify(_ write: Acknowledged) async -> Verdict {
        switch write {
        case .activity(let id, let user, let text, let file):
            let request = workload.apiRequest("/feeds/activities/\(id)", user: user, method: .GET)
            return await withRetries(request) { status, body in
                guard status != 404 else { return .missing }
                guard status == 200 else { return .unreadable("HTTP \(status)") }
                let json = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any]
                let activity = json?["activity"] as? [String: Any]
                guard activity?["text"] as? String == text else { return .different("text differs") }
                guard (activity?["user"] as? [String: Any])?["id"] as? String == workload.options.userID(user) else {
                    return .different("author differs")
                }
                guard let file else { return .found }
                let attachments = activity?["attachments"] as? [[String: Any]] ?? []
                guard let url = attachments.first?["asset_url"] as? String else { return .different("attachment missing") }
                return await verifyFile(url: url, file: file)
            }
        case .upload(let url, _, let file):
            return await verifyFile(url: url, file: file)
        }
    }

    /// Downloads a file and compares it with what was sent, as it streams.
    private func verifyFile(url: String, file: TestFile) async -> Verdict {
        for attempt in 1...3 {
            do {
                let response = try await client.execute(HTTPClientRequest(url: url), timeout: timeout)
                let status = Int(response.status.code)
                if status == 404 || status == 403 {
                    _ = try? await response.body.collect(upTo: 1 << 20)
                    return .missing
                }
                if status != 200 {
                    _ = try? await response.body.collect(upTo: 1 << 20)
                    if attempt == 3 { return .unreadable("file HTTP \(status)") }
                    continue
                }
                var comparison = TestFile.Comparison(file: file, shared: workload.shared)
                for try await chunk in response.body { comparison.feed(chunk) }
                return comparison.matches ? .found : .different("file bytes differ")
            } catch {
                if attempt == 3 { return .unreadable("\(error)") }
            }
            try? await Task.sleep(for: .milliseconds(100 * attempt))
        }
        return .unreadable("no attempt")
    }

    /// Sends a read up to three times while it fails for a reason that may pass (no reply, 5xx).
    private func withRetries(
        _ request: HTTPClientRequest, _ judge: (Int, ByteBuffer) async -> Verdict
    ) async -> Verdict {
        var last = "no attempt"
        for attempt in 1...3 {
            do {
                let response = try await client.execute(request, timeout: timeout)
                let body = try await response.body.collect(upTo: 16 << 20)
                let status = Int(response.status.code)
                if status < 500 { return await judge(status, body) }
                last = "HTTP \(status)"
            } catch {
                last = "\(error)"
            }
            try? await Task.sleep(for: .milliseconds(100 * attempt))
        }
        return .unreadable(last)
    }

    static func describe(_ write: Acknowledged) -> String {
        switch write {
        case .activity(let id, _, let text, _): "activity \(id) (\(text))"
        case .upload(let url, _, _): "upload \(url.split(separator: "?").first ?? "")"
        }
    }
}
