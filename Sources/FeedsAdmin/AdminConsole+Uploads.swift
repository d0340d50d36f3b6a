import FeedsCore
import Foundation
import Hummingbird

extension AdminConsole {
    /// Uploads shown on one page.
    package static let uploadsPageSize = 50

    package func uploadsPage(_ admin: AdminRequest) async throws -> Response {
        let query: UploadsQuery
        do {
            query = try UploadsQuery(admin.query)
        } catch {
            return page(
                .badRequest, title: "Uploads", session: admin.session,
                body: "\(Self.notice(error.message, error: true))<p><a href=\"/admin/uploads\">All uploads</a></p>")
        }
        let listings = try await store.uploads(query.filter, limit: Self.uploadsPageSize, logger: admin.logger)
        let deleted = admin.query["deleted"] != nil ? Self.notice("Deleted.") : ""
        let rows: [HTML] = listings.map { uploadRow($0, query: query, session: admin.session) }
        let older: HTML =
            listings.count == Self.uploadsPageSize
            ? "<p><a href=\"/admin/uploads?\(query.olderQuery(after: listings[listings.count - 1]))\">Older uploads →</a></p>"
            : ""
        return page(
            title: "Uploads", session: admin.session,
            body: """
                \(deleted)
                \(filters(query))
                \(rows.isEmpty ? HTML("<p class=\"muted\">No uploads match.</p>") : """
                <div class="table"><table>
                <thead><tr><th></th><th>File</th><th>Type</th><th class="number">Size</th><th>Owner</th><th>State</th><th>Uploaded</th><th>Held by</th><th></th></tr></thead>
                <tbody>\(rows)</tbody></table></div>
                """)
                \(older)
                """)
    }

    /// Deletes one upload the way DeleteFile and DeleteImage do, then goes back to the list.
    package func deleteUpload(_ admin: AdminRequest) async throws -> Response {
        guard let key = ObjectKey(rawValue: try admin.form.required("key")) else {
            throw FeedsError.input("key is not an upload of this server", field: "key")
        }
        guard try await uploads.objects.object(key, logger: admin.logger) != nil else {
            throw FeedsError.notFound("there is no upload \(key.rawValue)")
        }
        try await uploads.delete(key, logger: admin.logger)
        admin.logger.info("deleted an upload from the admin console", metadata: ["key": "\(key)"])
        let back =
            (try? UploadsQuery([
                "user": admin.form["user"] ?? "", "kind": admin.form["kind"] ?? "", "state": admin.form["state"] ?? "",
            ]))?
            .filterQuery ?? ""
        return Self.redirect("/admin/uploads?deleted=1" + (back.isEmpty ? "" : "&" + back))
    }

    private func filters(_ query: UploadsQuery) -> HTML {
        func option(_ value: String, _ label: String, selected: String?) -> HTML {
            "<option value=\"\(value)\"\(value == (selected ?? "") ? HTML(" selected") : "")>\(label)</option>"
        }
        let kinds =
            [option("", "any", selected: query.filter.kind?.rawValue)]
            + ["image", "file"].map { option($0, $0, selected: query.filter.kind?.rawValue) }
        let states =
            [option("", "any", selected: query.filter.state?.rawValue)]
            + UploadFilter.StateGroup.allCases.map { option($0.rawValue, $0.rawValue, selected: query.filter.state?.rawValue) }
        return """
            <form method="get" action="/admin/uploads" class="filters">
            <div><label for="user">User</label><input type="text" id="user" name="user" value="\(query.filter.owner ?? "")" placeholder="any"></div>
            <div><label for="kind">Kind</label><select id="kind" name="kind">\(kinds)</select></div>
            <div><label for="state">State</label><select id="state" name="state">\(states)</select></div>
            <div><button type="submit">Filter</button></div>
            </form>
            """
    }

    private func uploadRow(_ listing: UploadListing, query: UploadsQuery, session: AdminSession) -> HTML {
        let record = listing.record
        let live = record.state != .deleted && record.state != .deleting
        let thumbnail: HTML =
            live && uploads.urls.hasThumbnail(mimeType: record.mimeType, width: record.width)
            ? "<img class=\"thumb\" src=\"\(uploads.urls.thumbnailURL(uploads.urls.url(for: record.key), mimeType: record.mimeType))\" alt=\"thumbnail of \(record.fileName)\">"
            : ""
        var holders: [HTML] = []
        if let activity = listing.activityID { holders.append("activity <span class=\"mono\">\(activity)</span>") }
        if let comment = listing.commentID { holders.append("comment <span class=\"mono\">\(comment)</span>") }
        let delete: HTML =
            live
            ? """
            <form method="post" action="/admin/uploads/delete" class="inline">\(Self.csrfField(session))
            <input type="hidden" name="key" value="\(record.key.rawValue)">
            <input type="hidden" name="user" value="\(query.filter.owner ?? "")">
            <input type="hidden" name="kind" value="\(query.filter.kind?.rawValue ?? "")">
            <input type="hidden" name="state" value="\(query.filter.state?.rawValue ?? "")">
            <button type="submit" class="danger" aria-label="delete \(record.fileName)">Delete</button></form>
            """ : ""
        let dimensions: HTML =
            record.width.flatMap { w in record.height.map { h in "<br><span class=\"muted\">\(w)×\(h)</span>" } } ?? ""
        return """
            <tr data-key="\(record.key.rawValue)">
            <td>\(thumbnail)</td>
            <td><span class="mono">\(record.fileName)</span><br><span class="muted">\(record.kind.rawValue)</span></td>
            <td>\(record.mimeType)\(dimensions)</td>
            <td class="number">\(Self.bytes(record.size))</td>
            <td>\(record.ownerID.map { HTML("<span class=\"mono\">\($0)</span>") } ?? "<span class=\"muted\">server</span>")</td>
            <td class="state">\(record.state.rawValue)</td>
            <td>\(Self.time(listing.createdAt))</td>
            <td>\(holders.isEmpty ? HTML("<span class=\"muted\">none</span>") : HTML(stringLiteral: holders.map(\.description).joined(separator: "<br>")))</td>
            <td>\(delete)</td>
            </tr>
            """
    }
}
