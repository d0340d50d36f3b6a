import FeedsCore
import Foundation
import Hummingbird

extension AdminConsole {
    /// Where events go, what waits in the outbox, what failed (with a retry for each, and all).
    package func webhooksPage(_ admin: AdminRequest) async throws -> Response {
        async let settings = settingsStore.settings(logger: admin.logger)
        async let summary = webhooks.summary(logger: admin.logger)
        async let failed = webhooks.failed(limit: 100, logger: admin.logger)
        let retried = admin.query["retried"].flatMap(Int.init).map { Self.notice("\($0) deliveries will be tried again.") } ?? ""
        let state = try await summary
        let waiting: HTML =
            if let oldest = state.oldestPending {
                "<p id=\"pending\">\(state.pending) waiting, the oldest from \(Self.time(oldest)).</p>"
            } else { "<p id=\"pending\">Nothing waiting.</p>" }
        let retrying: HTML =
            state.retrying.map {
                "<p class=\"hint\" id=\"retrying\">Being retried: a \($0.eventType) after \($0.attempts) attempts: <span class=\"error-text\">\($0.error)</span></p>"
            } ?? ""
        return page(
            title: "Webhooks", session: admin.session,
            body: """
                \(retried)
                <h2>Hooks</h2>
                \(Self.hooksTable(try await settings.webhooks))
                <h2>Deliveries</h2>
                \(waiting)\(retrying)
                <h2>Failed</h2>
                \(Self.failedTable(try await failed, total: state.failed, session: admin.session))
                """)
    }

    /// Makes failed deliveries pending again: one (`id`), or all.
    package func retryWebhooks(_ admin: AdminRequest) async throws -> Response {
        let ids: [Int64]?
        if let id = admin.form["id"] {
            guard let id = Int64(id) else { throw FeedsError.input("id must be a delivery's number", field: "id") }
            ids = [id]
        } else {
            ids = nil
        }
        let count = try await webhooks.retry(ids, logger: admin.logger)
        return Self.redirect("/admin/webhooks?retried=\(count)")
    }

    private static func hooksTable(_ settings: WebhookSettings) -> HTML {
        let hooks = (settings.url.isEmpty ? [] : [WebhookHook(id: WebhookHook.webhookURLID, url: settings.url, eventTypes: settings.events)])
            + settings.hooks
        guard !hooks.isEmpty else {
            return "<p class=\"muted\">No hooks: set webhook_url or event_hooks with UpdateApp (PATCH /api/v2/app).</p>"
        }
        let rows: [HTML] = hooks.map { hook in
            """
            <tr><td class="mono">\(hook.id)</td><td class="mono">\(hook.url)</td>
            <td>\(hook.eventTypes.isEmpty ? "every event" : hook.eventTypes.joined(separator: ", "))</td>
            <td>\(hook.enabled ? "on" : "off")</td><td class="number">\(hook.timeoutMs) ms</td></tr>
            """
        }
        return """
            <div class="table"><table>
            <thead><tr><th>Id</th><th>URL</th><th>Events</th><th>State</th><th class="number">Timeout</th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            """
    }

    private static func failedTable(_ failed: [FailedWebhook], total: Int, session: AdminSession) -> HTML {
        guard !failed.isEmpty else { return "<p class=\"muted\" id=\"failed\">No failed deliveries.</p>" }
        let rows: [HTML] = failed.map { delivery in
            """
            <tr data-id="\(delivery.id)"><td>\(time(delivery.failedAt))</td><td class="mono">\(delivery.hookID)</td>
            <td>\(delivery.eventType)</td><td class="number">\(delivery.attempts)</td>
            <td class="error-text">\(delivery.error)</td>
            <td><form method="post" action="/admin/webhooks/retry" class="inline">\(csrfField(session))
            <input type="hidden" name="id" value="\(delivery.id)"><button type="submit">Retry</button></form></td></tr>
            """
        }
        let shown: HTML = total > failed.count ? "<p class=\"hint\">The newest \(failed.count) of \(total).</p>" : ""
        return """
            <p id="failed">\(total) failed: given up on after their retries, or refused by the receiver (4xx).</p>
            <form method="post" action="/admin/webhooks/retry">\(csrfField(session))<button type="submit">Retry all failed</button></form>
            \(shown)
            <div class="table"><table>
            <thead><tr><th>Failed</th><th>Hook</th><th>Event</th><th class="number">Attempts</th><th>Last error</th><th></th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            """
    }
}
