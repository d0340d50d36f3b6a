import ArgumentParser
import FeedsAuth
import FeedsHTTP
import Foundation

/// `feeds token`: prints a JWT signed with the configured secret, for development and scripts.
struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a signed token: a user's, or the server's.")

    @Option(help: "The user the token is for; without one, a server token.") var user: String?
    @Option(help: "Seconds until the token expires; without one, it does not.") var expires: Int?
    @OptionGroup var settings: SettingsOptions

    func run() async throws {
        let (configuration, _) = try settings.resolve()
        if let user, user.isEmpty { throw ValidationError("--user must not be empty") }
        if let expires, expires <= 0 { throw ValidationError("--expires must be a positive number of seconds") }
        let authenticator = try await Authenticator(apiKey: configuration.apiKey, apiSecret: configuration.apiSecret)
        print(try await authenticator.token(userID: user, expiresAt: expires.map { Date().addingTimeInterval(Double($0)) }))
    }
}
