import Crypto
import FeedsAuth
import FeedsCore
import FeedsUploads
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The admin console at `/admin`, served by every node: upload rules, uploads, storage. Pages are
/// rendered on the server (no script), every form carries a CSRF token, and every page but the
/// sign-in form and the stylesheet needs a session.
package struct AdminConsole: Sendable {
    package let sessions: any AdminSessionStore
    package let store: any AdminStore
    package let settingsStore: any AppSettingsStore
    package let uploads: UploadPipeline
    package let sweeper: ObjectSweeper
    package let authenticator: Authenticator
    package let apiKey: String
    package let apiSecret: String
    package let options: AdminConsoleOptions
    package let throttle: SignInThrottle
    /// Cookies get `Secure` when the public URL is https (TLS ends at a proxy in front).
    package let secureCookies: Bool
    /// Where thumbnails may load from: this server, its public URL, the object store.
    package let imageSources: [String]
    /// How long a console request may take (gc aside).
    package let deadline: Duration
    /// The webhook outbox: what waits, what failed.
    package let webhooks: any WebhookDeliveries

    package init(
        sessions: any AdminSessionStore, store: any AdminStore, settingsStore: any AppSettingsStore, uploads: UploadPipeline,
        sweeper: ObjectSweeper, authenticator: Authenticator, apiKey: String, apiSecret: String, options: AdminConsoleOptions,
        throttle: SignInThrottle, secureCookies: Bool, imageSources: [String], deadline: Duration,
        webhooks: any WebhookDeliveries
    ) {
        self.webhooks = webhooks
        (self.sessions, self.store, self.settingsStore, self.uploads, self.sweeper) = (
            sessions, store, settingsStore, uploads, sweeper
        )
        (self.authenticator, self.apiKey, self.apiSecret, self.options) = (authenticator, apiKey, apiSecret, options)
        (self.throttle, self.secureCookies, self.imageSources, self.deadline) = (throttle, secureCookies, imageSources, deadline)
    }

    package static let sessionCookie = "feeds_admin_session"
    package static let signInCookie = "feeds_admin_sign_in"
    package static let path = "/admin"

    package func register<Context: RequestContext>(on router: Router<Context>) {
        router.add(middleware: AdminHeadersMiddleware(imageSources: imageSources))
        router.get("/admin") { request, _ in try await signedIn(request) { _ in Self.redirect("/admin/rules") } }
        router.get("/admin/admin.css") { _, _ in AdminStylesheet.response }
        router.get("/admin/sign-in") { request, _ in try await guarded { try await signInPage(request) } }
        // A slowed-down sign-in may wait its turn for up to the throttle's queue before its check.
        router.post("/admin/sign-in") { request, _ in
            try await guarded(deadline: deadline + .seconds(throttle.longestQueue)) { try await signIn(request) }
        }
        router.post("/admin/sign-out") { request, _ in try await signedInForm(request) { try await signOut($0) } }
        router.get("/admin/rules") { request, _ in try await signedIn(request) { try await rulesPage($0) } }
        router.post("/admin/rules") { request, _ in try await signedInForm(request) { try await saveRules($0) } }
        router.get("/admin/uploads") { request, _ in try await signedIn(request) { try await uploadsPage($0) } }
        router.post("/admin/uploads/delete") { request, _ in
            try await signedInForm(request) { try await deleteUpload($0) }
        }
        router.get("/admin/storage") { request, _ in try await signedIn(request) { try await storagePage($0) } }
        router.get("/admin/webhooks") { request, _ in try await signedIn(request) { try await webhooksPage($0) } }
        router.post("/admin/webhooks/retry") { request, _ in
            try await signedInForm(request) { try await retryWebhooks($0) }
        }
        router.get("/admin/**") { request, _ in
            try await signedIn(request) { admin in
                page(
                    .notFound, title: "Not found", session: admin.session,
                    body: Self.notice("There is no such page.", error: true))
            }
        }
        router.post("/admin/storage/gc") { request, _ in
            try await signedInForm(request, deadline: options.gcDeadline) { try await runGC($0) }
        }
    }

    /// A signed-in request: its session, the form it sent (posts), and the request.
    package struct AdminRequest: Sendable {
        package let request: Request
        package let session: AdminSession
        package let tokenHash: String
        package var form = FormFields.empty
        package var logger: Logger { Self.defaultLogger }
        /// The request's logger, with its id.
        package static var defaultLogger: Logger { RequestScope.current?.logger ?? Logger(label: "feeds.admin") }
        package var query: [String: String] {
            var query: [String: String] = [:]
            for (name, value) in request.uri.queryParameters where query[String(name)] == nil {
                query[String(name)] = String(value)
            }
            return query
        }
    }

    /// Runs `body` for a signed-in admin; anyone else is sent to the sign-in form, and comes back
    /// to this page after.
    package func signedIn(_ request: Request, _ body: @escaping @Sendable (AdminRequest) async throws -> Response) async throws
        -> Response
    {
        try await guarded {
            guard let (session, hash) = try await currentSession(request) else {
                let page = request.uri.path
                return Self.redirect("/admin/sign-in" + (Self.pages.contains(page) ? "?next=\(page)" : ""))
            }
            return try await body(AdminRequest(request: request, session: session, tokenHash: hash))
        }
    }

    /// Runs `body` for a form a signed-in admin posted with the CSRF token of their own session;
    /// any other post changes nothing.
    package func signedInForm(
        _ request: Request, deadline: Duration? = nil, _ body: @escaping @Sendable (AdminRequest) async throws -> Response
    ) async throws -> Response {
        try await guarded(deadline: deadline) {
            guard let (session, hash) = try await currentSession(request) else { return Self.redirect("/admin/sign-in") }
            var admin = AdminRequest(request: request, session: session, tokenHash: hash)
            admin.form = try await Self.form(request)
            guard let given = admin.form["csrf"], constantTimeEqual(given, session.csrfToken) else {
                return page(
                    .forbidden, title: "Refused", session: session,
                    body: """
                        <p class="error">This form is out of date or came from another page (its CSRF token does not match
                        this session), so nothing was changed. <a href="/admin/rules">Start again</a>.</p>
                        """)
            }
            return try await body(admin)
        }
    }

    /// The session of the request's cookie, if it is live.
    package func currentSession(_ request: Request) async throws -> (AdminSession, String)? {
        guard let token = request.cookies[Self.sessionCookie]?.value, !token.isEmpty, token.utf8.count <= 128 else { return nil }
        let hash = Self.hash(token)
        guard
            let session = try await sessions.session(
                tokenHash: hash, now: options.clock.now, idle: options.idleTimeout,
                logger: AdminRequest.defaultLogger)
        else { return nil }
        return (session, hash)
    }

    /// Runs `body` under the console's deadline; what it throws becomes an HTML page.
    package func guarded(deadline: Duration? = nil, _ body: @escaping @Sendable () async throws -> Response) async throws
        -> Response
    {
        do {
            return try await withDeadline(deadline ?? self.deadline, "the admin console", body)
        } catch let error as FeedsError {
            return page(
                .init(code: error.kind.status), title: "Error", session: nil, body: "<p class=\"error\">\(error.message)</p>")
        } catch {
            let scope = RequestScope.current
            scope?.logger.error(
                "admin console request failed", metadata: ["error": "\(Redaction.scrub(String(reflecting: error)))"])
            return page(
                .internalServerError, title: "Error", session: nil,
                body:
                    "<p class=\"error\">Something failed; the server log has the details under request id \(scope?.requestID ?? "-").</p>"
            )
        }
    }

    /// The console's pages, the only places `next=` may send an admin back to.
    package static let pages: Set<String> = ["/admin/rules", "/admin/uploads", "/admin/storage", "/admin/webhooks"]

    package static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    /// The body of a posted form, strictly read.
    package static func form(_ request: Request) async throws -> FormFields {
        let type = request.headers[.contentType]?.lowercased() ?? ""
        guard type.hasPrefix("application/x-www-form-urlencoded") else {
            throw FeedsError(.unsupportedMediaType, "the console takes forms as application/x-www-form-urlencoded")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: FormFields.maximumBytes)
        } catch {
            throw FeedsError(.payloadTooLarge, "the form is larger than \(FormFields.maximumBytes) bytes")
        }
        return try FormFields(Array(buffer.readableBytesView))
    }

    /// A new random token: 32 bytes, base64url.
    package static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// What the session store keeps of a cookie's token.
    package static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
