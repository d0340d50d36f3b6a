import FeedsAuth
import FeedsCore
import Foundation
import Hummingbird

extension AdminConsole {
    /// The sign-in form. Its CSRF token is a cookie of its own (there is no session yet), sent
    /// back in a hidden field: a form posted from another site has the one but not the other.
    package func signInPage(_ request: Request) async throws -> Response {
        let next = Self.safeNext(request.uri.queryParameters["next"].map(String.init))
        if try await currentSession(request) != nil { return Self.redirect(next) }
        return signInForm(.ok, next: next, apiKey: "", message: nil)
    }

    package func signIn(_ request: Request) async throws -> Response {
        let form = try await Self.form(request)
        let next = Self.safeNext(form["next"])
        let typedKey = String((form["api_key"] ?? "").prefix(256))
        guard let expected = request.cookies[Self.signInCookie]?.value, !expected.isEmpty, let given = form["csrf"],
            constantTimeEqual(given, expected)
        else {
            return signInForm(
                .forbidden, next: next, apiKey: typedKey,
                message: "The sign-in form was out of date or came from another page; please sign in again.")
        }
        let source = RequestScope.current?.peer ?? "unknown"
        switch throttle.admit(source) {
        case .refused(let seconds):
            var response = signInForm(
                .tooManyRequests, next: next, apiKey: typedKey,
                message: "Too many sign-in attempts from your address; try again in \(seconds) seconds.")
            response.headers[.retryAfter] = String(seconds)
            return response
        case .proceed(let wait):
            if wait > .zero { try await options.pause(wait) }
        }
        guard let credential = await check(form) else {
            return signInForm(
                .unauthorized, next: next, apiKey: typedKey,
                message: "These are not this app's credentials. Sign in with the API key and its secret, or a server token.")
        }
        throttle.succeeded(source)
        let now = options.clock.now
        // Always a new token: one planted in the browser beforehand (session fixation) is never
        // promoted to a session, and is ended if it was one. Sessions that are over go too.
        let old = request.cookies[Self.sessionCookie]?.value ?? ""
        try await sessions.end(
            tokenHash: Self.hash(old), now: now, idle: options.idleTimeout, logger: AdminRequest.defaultLogger)
        let token = Self.newToken()
        let session = AdminSession(
            csrfToken: Self.newToken(), credential: credential, createdAt: now, seenAt: now,
            expiresAt: now.addingTimeInterval(options.sessionLifetime))
        try await sessions.create(session, tokenHash: Self.hash(token), logger: AdminRequest.defaultLogger)
        var response = Self.redirect(next)
        response.setCookie(cookie(Self.sessionCookie, token, maxAge: Int(options.sessionLifetime)))
        response.setCookie(cookie(Self.signInCookie, "", maxAge: 0))
        return response
    }

    package func signOut(_ admin: AdminRequest) async throws -> Response {
        try await sessions.end(
            tokenHash: admin.tokenHash, now: options.clock.now, idle: options.idleTimeout, logger: admin.logger)
        var response = Self.redirect("/admin/sign-in")
        response.setCookie(cookie(Self.sessionCookie, "", maxAge: 0))
        return response
    }

    /// The credential the form proves, or nil: the API key with its secret, or with a server
    /// token. Secrets are compared as SHA-256 digests, in constant time and of equal length.
    private func check(_ form: FormFields) async -> AdminSession.Credential? {
        guard let key = form["api_key"], Self.sameSecret(key, apiKey) else { return nil }
        if let secret = form["api_secret"], !secret.isEmpty {
            return Self.sameSecret(secret, apiSecret) ? .apiSecret : nil
        }
        if let token = form["server_token"], !token.isEmpty, token.utf8.count <= 8192,
            (try? authenticator.authenticate(apiKey: apiKey, authorization: token, authType: "jwt")) == .server
        {
            return .serverToken
        }
        return nil
    }

    package static func sameSecret(_ given: String, _ expected: String) -> Bool {
        constantTimeEqual(hash(given), hash(expected))
    }

    /// Where to go after signing in: one of the console's pages, never anywhere else.
    package static func safeNext(_ next: String?) -> String {
        guard let next, pages.contains(next) else { return "/admin/rules" }
        return next
    }

    private func signInForm(_ status: HTTPResponse.Status, next: String, apiKey: String, message: String?) -> Response {
        let csrf = Self.newToken()
        var response = page(
            status, title: "Sign in", session: nil,
            body: """
                <form method="post" action="/admin/sign-in" class="sign-in">
                \(message.map { Self.notice($0, error: true) } ?? "")
                <input type="hidden" name="csrf" value="\(csrf)">
                <input type="hidden" name="next" value="\(next)">
                <label for="api_key">API key</label>
                <input type="text" id="api_key" name="api_key" value="\(apiKey)" autocomplete="username" required>
                <label for="api_secret">API secret</label>
                <input type="password" id="api_secret" name="api_secret" autocomplete="current-password">
                <label for="server_token">or a server token</label>
                <input type="password" id="server_token" name="server_token" autocomplete="off">
                <p class="hint">A token from <code>feeds token</code>, signed with the secret, with no user_id.</p>
                <p><button type="submit">Sign in</button></p>
                </form>
                """)
        response.setCookie(cookie(Self.signInCookie, csrf, maxAge: 3600))
        return response
    }

    /// A console cookie: only for `/admin`, never for scripts, never sent by another site.
    private func cookie(_ name: String, _ value: String, maxAge: Int) -> Cookie {
        Cookie(
            name: name, value: value, maxAge: maxAge, path: Self.path, secure: secureCookies, httpOnly: true, sameSite: .strict)
    }
}
