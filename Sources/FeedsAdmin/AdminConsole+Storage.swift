import FeedsCore
import FeedsUploads
import Foundation
import Hummingbird

extension AdminConsole {
    package func storagePage(_ admin: AdminRequest) async throws -> Response {
        async let totals = store.storageTotals(logger: admin.logger)
        async let sweepable = sweeper.preview(logger: admin.logger)
        async let runs = store.gcRuns(limit: 20, logger: admin.logger)
        let notice = admin.query["gc"] != nil ? Self.notice("gc ran; its counts are at the top of the list below.") : ""
        let objects = try await totals
        return page(
            title: "Storage", session: admin.session,
            body: """
                \(notice)
                <div class="grid">
                <section><h2>Objects by state</h2>\(Self.totalsTable(objects, states: ObjectRecord.State.allCases))
                \(deletingNote(objects[.deleting]))</section>
                <section><h2>What the next gc would delete</h2>\(Self.totalsTable(try await sweepable, states: sweeper.ages.map(\.state)))
                <p class="hint">\(Self.sweepRule(sweeper.ages))</p>
                <form method="post" action="/admin/storage/gc">\(Self.csrfField(admin.session))<button type="submit">Run gc now</button></form>
                </section>
                </div>
                <h2>Last gc runs</h2>
                \(Self.runsTable(try await runs))
                """)
    }

    package func runGC(_ admin: AdminRequest) async throws -> Response {
        _ = try await recordedSweep(sweeper, trigger: .console, runs: store, logger: admin.logger)
        return Self.redirect("/admin/storage?gc=1")
    }

    /// When the objects left in `deleting` (deletes that failed, or uploads cut short whose bytes
    /// may still land) are deleted again: each once it has waited the sweeper's retry delay.
    private func deletingNote(_ deleting: ObjectTotals?) -> HTML {
        guard let deleting, deleting.objects > 0, let oldest = deleting.oldest else { return "" }
        let due = oldest.addingTimeInterval(Double(sweeper.retryAfter.components.seconds))
        return """
            <p class="hint" id="deleting">\(deleting.objects) waiting in deleting: deletes that failed or uploads cut short.
            gc deletes each again once it has waited \(Self.hours(sweeper.retryAfter)): the oldest from \(Self.time(due)).</p>
            """
    }

    /// What the sweep takes, in words: each state and how long it must have stayed in it.
    private static func sweepRule(_ ages: [(state: ObjectRecord.State, age: Duration?)]) -> String {
        let parts = ages.map { state, age in
            age.map { "\(state.rawValue) for over \(hours($0))" } ?? "\(state.rawValue): never (FEEDS_UNATTACHED_TTL is off)"
        }
        return "gc deletes objects " + parts.joined(separator: ", ") + "."
    }

    private static func hours(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        if seconds >= 3600, seconds % 3600 == 0 { return "\(seconds / 3600) h" }
        if seconds >= 60, seconds % 60 == 0 { return "\(seconds / 60) min" }
        return "\(seconds) s"
    }

    private static func totalsTable(_ totals: [ObjectRecord.State: ObjectTotals], states: [ObjectRecord.State]) -> HTML {
        let rows: [HTML] = states.map { state in
            let total = totals[state] ?? ObjectTotals()
            return
                "<tr><td>\(state.rawValue)</td><td class=\"number\">\(total.objects)</td><td class=\"number\">\(bytes(total.bytes))</td></tr>"
        }
        let all = states.compactMap { totals[$0] }.reduce(ObjectTotals()) {
            ObjectTotals(objects: $0.objects + $1.objects, bytes: $0.bytes + $1.bytes)
        }
        return """
            <div class="table"><table>
            <thead><tr><th>State</th><th class="number">Objects</th><th class="number">Bytes</th></tr></thead>
            <tbody>\(rows)<tr><th>all</th><th class="number">\(all.objects)</th><th class="number">\(bytes(all.bytes))</th></tr></tbody>
            </table></div>
            """
    }

    private static func runsTable(_ runs: [GCRun]) -> HTML {
        guard !runs.isEmpty else { return "<p class=\"muted\">No gc has run yet.</p>" }
        let rows: [HTML] = runs.map { run in
            let outcome: HTML =
                if let error = run.error { "<span class=\"error-text\">failed: \(error)</span>" } else if !run.ran {
                    "<span class=\"muted\">another node was sweeping</span>"
                } else { "done" }
            return """
                <tr><td>\(time(run.startedAt))</td><td>\(run.trigger.rawValue)</td><td>\(outcome)</td>
                <td class="number">\(run.objects)</td><td class="number">\(run.failed)</td><td class="number">\(run.orphans)</td>
                <td class="number">\(run.tempFiles)</td><td class="number">\(run.idempotencyKeys)</td></tr>
                """
        }
        return """
            <div class="table"><table>
            <thead><tr><th>Started</th><th>By</th><th>Outcome</th><th class="number">Objects deleted</th>
            <th class="number">Deletes failed</th><th class="number">Orphans</th><th class="number">Temp files</th>
            <th class="number">Idempotency keys</th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            """
    }
}
