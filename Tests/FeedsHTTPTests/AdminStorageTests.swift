import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// The storage page: totals by state, what the next gc would delete (exactly what it then
/// deletes), a button that runs gc, and the runs it and the others recorded.
@Suite struct AdminStorageTests {
    /// The objects and bytes of a row of the first totals table whose state is `state`.
    func row(_ state: String, in html: Substring) -> String? {
        guard let start = html.range(of: "<tr><td>\(state)</td>") else { return nil }
        return String(html[start.upperBound...].prefix { $0 != "\n" }.prefix(200))
    }

    @Test func theNextGCIsForeseenThenRunFromTheConsoleAndRecorded() async throws {
        try await TestServer.run { server in
            let kept = try server.objectKey(of: try await server.uploadFile(as: "alice", name: "kept.txt"))
            let swept = try server.objectKey(of: try await server.uploadFile(as: "alice", name: "old.txt", Data("old!\n".utf8)))
            try await server.age(swept)
            let client = try await AdminClient(server).signedIn()

            let page = try await client.get("/admin/storage")
            #expect(page.status == 200)
            let sections = page.text.components(separatedBy: "<h2>")
            let totals = try #require(sections.first { $0.hasPrefix("Objects by state") })[...]
            let next = try #require(sections.first { $0.hasPrefix("What the next gc would delete") })[...]
            #expect(row("stored", in: totals)?.contains(#"<td class="number">2</td>"#) == true, "\(totals)")
            #expect(row("stored", in: next)?.contains(#"<td class="number">1</td>"#) == true, "\(next)")
            #expect(row("stored", in: next)?.contains("5 B") == true, "the old upload's 5 bytes: \(next)")

            let csrf = try client.csrf(in: page)
            #expect(try await client.post("/admin/storage/gc", [("csrf", "forged")]).status == 403)
            #expect(try await server.state(of: swept) == "stored")
            let reply = try await client.post("/admin/storage/gc", [("csrf", csrf)])
            #expect(reply.status == 303 && reply.location == "/admin/storage?gc=1")
            #expect(try await server.state(of: swept) == "deleted")
            #expect(try await server.state(of: kept) == "stored")

            let after = try await client.get("/admin/storage?gc=1")
            #expect(after.text.contains("gc ran"))
            let runs = try #require(after.text.components(separatedBy: "<h2>").first { $0.hasPrefix("Last gc runs") })
            let latest = try #require(runs.components(separatedBy: "<tr><td>").dropFirst().first)
            #expect(latest.contains("<td>console</td><td>done</td>"), "\(latest)")
            #expect(latest.contains(#"<td class="number">1</td>"#), "one object deleted: \(latest)")
            #expect(runs.contains("<td>schedule</td>"), "the server's own sweep at start is listed too")
            // `feeds gc` records its runs as well.
            try await server.sweep()
            #expect(try await server.number("SELECT count(*)::int FROM gc_runs WHERE trigger = 'cli'") == 1)
        }
    }

    /// Objects left in `deleting` (a delete that failed, an upload cut short) say when gc takes them again.
    @Test func objectsLeftDeletingSayWhenGCTakesThemAgain() async throws {
        try await TestServer.run { server in
            let key = try server.objectKey(of: try await server.uploadFile(as: "alice", name: "cut.txt"))
            let client = try await AdminClient(server).signedIn()
            #expect(!(try await client.get("/admin/storage")).text.contains(#"id="deleting""#), "nothing is deleting yet")

            try await server.database.query(
                "UPDATE cdn_objects SET state = 'deleting' WHERE key = \(key)", logger: TestDatabase.logger)
            let page = try await client.get("/admin/storage")
            let note = try #require(page.text.components(separatedBy: #"id="deleting">"#).dropFirst().first)
            #expect(note.hasPrefix("1 waiting in deleting"), "\(note.prefix(200))")
            #expect(note.contains("once it has waited 5 min"), "\(note.prefix(200))")
        }
    }
}
