import FeedsAdmin
import FeedsAuth
import FeedsCore
import FeedsPostgres
import FeedsUploads
import Foundation
import PostgresNIO

/// The console as `buildApplication` serves it, on the server's own database, uploads and sweeper.
func makeAdminConsole(
    _ configuration: FeedsConfiguration, client: PostgresClient, store: any AdminStore, settingsStore: any AppSettingsStore,
    uploads: UploadPipeline, sweeper: ObjectSweeper, authenticator: Authenticator, webhooks: any WebhookDeliveries
) throws -> AdminConsole {
    // Thumbnails come from our public URL, and with S3 redirect on to the store.
    var sources = [configuration.publicURL]
    if let s3 = configuration.s3, let store = origin(s3.endpoint.absoluteString) {
        sources.append(s3.pathStyle ? store : store.replacingOccurrences(of: "://", with: "://\(s3.bucket)."))
    }
    let origins = sources.compactMap(origin)
    return AdminConsole(
        sessions: PostgresAdminSessionStore(client: client), store: store, settingsStore: settingsStore, uploads: uploads,
        sweeper: sweeper, authenticator: authenticator, apiKey: configuration.apiKey, apiSecret: configuration.apiSecret,
        options: configuration.admin, throttle: SignInThrottle(clock: configuration.admin.clock),
        secureCookies: configuration.publicURL.lowercased().hasPrefix("https://"), imageSources: Array(Set(origins)).sorted(),
        deadline: configuration.requestTimeout, webhooks: webhooks)
}

/// `scheme://host[:port]` of a URL, for a Content-Security-Policy source; nil when it has none.
private func origin(_ text: String) -> String? {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
        let host = url.host, host.allSatisfy({ $0.isLetter || $0.isNumber || ".-:[]".contains($0) })
    else { return nil }
    return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
}
