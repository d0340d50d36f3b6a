import FeedsCore
import Foundation

/// Where an UpdateApp points the app's webhooks, checked before the settings take it: the host
/// must resolve, and only to public addresses unless the operator allowed it
/// (`FEEDS_WEBHOOK_ALLOWED_HOSTS`, for receivers on the same network). The sender checks again
/// at each lookup (`HTTPWebhookSender`): a name may point elsewhere later.
package struct WebhookAddresses: Sendable {
    let allowedHosts: Set<String>

    package init(allowedHosts: Set<String> = []) {
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
    }

    package func check(_ url: String, field: String) async throws {
        guard let host = URL(string: url)?.host?.lowercased(), !host.isEmpty else {
            throw FeedsError.input("\(field) must be an http or https URL", field: field)
        }
        do {
            _ = try await OutboundAddress.address(of: host, anywhere: allowedHosts.contains(host))
        } catch .unresolved {
            throw FeedsError.input("\(field): \(host.prefix(200)) does not resolve", field: field)
        } catch .notPublic {
            throw FeedsError.input(
                "\(field): \(host.prefix(200)) is not on the public internet; the operator may allow the host "
                    + "(FEEDS_WEBHOOK_ALLOWED_HOSTS)", field: field)
        }
    }
}
