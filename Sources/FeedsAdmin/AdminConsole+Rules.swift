import FeedsCore
import Foundation
import Hummingbird

extension AdminConsole {
    package func rulesPage(_ admin: AdminRequest) async throws -> Response {
        let settings = try await settingsStore.settings(logger: admin.logger)
        let saved = admin.query["saved"].flatMap(Int64.init).map {
            "Saved as version \($0); every node applies it within a second."
        }
        let unchanged = admin.query["unchanged"] != nil ? "Nothing changed, so nothing was saved." : nil
        return try await rulesForm(
            .ok, RulesForm(settings), admin: admin, notice: (saved ?? unchanged).map { Self.notice($0) })
    }

    /// Saves the whole form through the same validation as `PATCH /app`; a refusal shows the
    /// form again as typed, with the API's message on the field at fault, and saves nothing.
    package func saveRules(_ admin: AdminRequest) async throws -> Response {
        var form = try RulesForm(admin.form)
        let change = form.change()
        do {
            let current = try await settingsStore.settings(logger: admin.logger)
            var next = try change.applied(to: current)
            next.version = current.version
            if next == current { return Self.redirect("/admin/rules?unchanged=1") }
            let saved = try await settingsStore.update(
                change, by: "console, signed in with the \(admin.session.credential.rawValue)", expectedVersion: form.version,
                logger: admin.logger)
            // This node takes it at once; the others hear of it through NOTIFY.
            uploads.settings.offer(saved)
            return Self.redirect("/admin/rules?saved=\(saved.version)")
        } catch let error as FeedsError where error.kind == .input || error.kind == .conflict {
            if error.kind == .conflict { form.version = try await settingsStore.settings(logger: admin.logger).version }
            let message = error.field.map { "\($0): \(error.message)" } ?? error.message
            return try await rulesForm(
                .init(code: error.kind.status), form, admin: admin, notice: Self.notice(message, error: true),
                invalid: error.field)
        }
    }

    private func rulesForm(
        _ status: HTTPResponse.Status, _ form: RulesForm, admin: AdminRequest, notice: HTML?, invalid: String? = nil
    ) async throws -> Response {
        func input(_ field: String, _ label: String, hint: String) -> HTML {
            """
            <label for="\(field)">\(label)</label>
            <input type="text" id="\(field)" name="\(field)" value="\(form.values[field] ?? "")"\(field == invalid ? HTML(" aria-invalid=\"true\"") : "")>
            <p class="hint">\(hint)</p>
            """
        }
        func fieldset(_ config: String, _ title: String) -> HTML {
            """
            <fieldset><legend>\(title) <span class="muted mono">\(config)</span></legend>
            \(input("\(config).allowed_file_extensions", "Allowed extensions", hint: "Comma-separated, like png, jpg, tar.gz. Empty allows every extension."))
            \(input("\(config).blocked_file_extensions", "Blocked extensions", hint: "Blocked wins over allowed."))
            \(input("\(config).allowed_mime_types", "Allowed MIME types", hint: "Like image/png or image/*, checked against the type sniffed from the bytes. Empty allows every type."))
            \(input("\(config).blocked_mime_types", "Blocked MIME types", hint: "Blocked wins over allowed."))
            \(input("\(config).size_limit", "Size limit (bytes)", hint: "0 is the default, 100 MB (104857600), the most allowed."))
            </fieldset>
            """
        }
        func stripChoice(_ value: String) -> HTML {
            func option(_ choice: String, _ text: String) -> HTML {
                "<option value=\"\(choice)\"\(choice == value ? HTML(" selected") : "")>\(text)</option>"
            }
            return """
                <label for="\(RulesForm.strip)">Photo metadata</label>
                <select id="\(RulesForm.strip)" name="\(RulesForm.strip)">
                \(option("on", "Strip location and identifying metadata"))\(option("off", "Keep photos as sent"))
                </select>
                <p class="hint">JPEG, PNG and WebP uploads lose GPS, camera serials, XMP and comments; pixels, colour profile and orientation stay.</p>
                """
        }
        let audit = try await store.settingsAudit(limit: 50, logger: admin.logger)
        let rows: [HTML] = audit.map { entry in
            let changes: [HTML] = entry.changes.map { "<li>\($0)</li>" }
            return """
                <tr><td>\(Self.time(entry.changedAt))</td><td>\(entry.actor)</td><td class="number">\(entry.version)</td>
                <td>\(changes.isEmpty ? HTML("<span class=\"muted\">no change</span>") : "<ul class=\"changes\">\(changes)</ul>")</td></tr>
                """
        }
        return page(
            status, title: "Upload rules", session: admin.session,
            body: """
                \(notice ?? "")
                <form method="post" action="/admin/rules">
                \(Self.csrfField(admin.session))
                <input type="hidden" name="version" value="\(form.version)">
                <div class="grid">
                \(fieldset("file_upload_config", "Files"))
                \(fieldset("image_upload_config", "Images"))
                </div>
                \(input(RulesForm.expiration, "URL lifetime (seconds)", hint: "How long handed-out URLs stay valid: 14400 (4 hours) to 1209600 (14 days)."))
                \(stripChoice(form.values[RulesForm.strip] ?? "on"))
                <p><button type="submit">Save rules</button></p>
                </form>
                <h2>Changes</h2>
                \(rows.isEmpty ? HTML("<p class=\"muted\">No changes yet.</p>") : """
                <div class="table"><table>
                <thead><tr><th>When</th><th>Who</th><th class="number">Version</th><th>What</th></tr></thead>
                <tbody>\(rows)</tbody></table></div>
                """)
                """)
    }
}
