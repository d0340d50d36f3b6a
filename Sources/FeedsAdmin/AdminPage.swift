import FeedsCore
import Foundation
import HTTPTypes
import Hummingbird

extension AdminConsole {
    /// A whole page: the header with the console's sections and sign-out (for a session), then `body`.
    package func page(_ status: HTTPResponse.Status = .ok, title: String, session: AdminSession?, body: HTML) -> Response {
        let navigation: HTML =
            if let session {
                """
                <nav>
                <a href="/admin/rules">Upload rules</a>
                <a href="/admin/uploads">Uploads</a>
                <a href="/admin/storage">Storage</a>
                <a href="/admin/webhooks">Webhooks</a>
                <form method="post" action="/admin/sign-out" class="inline">\(Self.csrfField(session))<button type="submit" class="link">Sign out</button></form>
                </nav>
                """
            } else { "" }
        let html: HTML = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · Feeds admin</title>
            <link rel="stylesheet" href="/admin/admin.css">
            </head>
            <body>
            <header><span class="brand">Feeds admin</span>\(navigation)</header>
            <main>
            <h1>\(title)</h1>
            \(body)
            </main>
            </body>
            </html>

            """
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: html.description)))
    }

    /// The hidden field every form of a session carries.
    package static func csrfField(_ session: AdminSession) -> HTML {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(session.csrfToken)\">"
    }

    /// A notice at the top of a page; `error` makes it one.
    package static func notice(_ text: String, error: Bool = false) -> HTML {
        "<p class=\"\(error ? "error" : "notice")\" role=\"\(error ? "alert" : "status")\">\(text)</p>"
    }

    /// Bytes as people read them (and exactly, on hover).
    package static func bytes(_ count: Int64) -> HTML {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let text = unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
        return "<span title=\"\(count) bytes\">\(text)</span>"
    }

    /// A time in UTC, to the second.
    package static func time(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d UTC", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0,
            c.second ?? 0)
    }
}

/// The headers every `/admin` answer carries: nothing framed, sniffed, cached or leaked by
/// referrer, and a policy that allows our stylesheet, our forms and thumbnails, and no script.
package struct AdminHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    package let policy: String

    package init(imageSources: [String]) {
        policy =
            "default-src 'none'; style-src 'self'; img-src 'self' \(imageSources.joined(separator: " ")); "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.uri.path == AdminConsole.path || request.uri.path.hasPrefix(AdminConsole.path + "/") else {
            return try await next(request, context)
        }
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = policy
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.cacheControl] = "no-store"
        response.headers[.crossOriginOpenerPolicy] = "same-origin"
        return response
    }
}

extension HTTPField.Name {
    package static let xFrameOptions = Self("X-Frame-Options")!
    package static let referrerPolicy = Self("Referrer-Policy")!
    package static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
}
