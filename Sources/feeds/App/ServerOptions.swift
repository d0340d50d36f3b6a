import ArgumentParser
import FeedsHTTP

/// Which running server to talk to: `--url`, or the configured public URL; its key and secret
/// come from the usual configuration (flags, environment, or the data directory's dev pair).
struct ServerOptions: ParsableArguments {
    @Option(help: "The server's base URL (default: FEEDS_PUBLIC_URL, or http://host:port).") var url: String?
    @OptionGroup var settings: SettingsOptions

    func client() throws -> AppSettingsClient {
        let (configuration, _) = try settings.resolve()
        return AppSettingsClient(
            baseURL: url ?? configuration.publicURL, apiKey: configuration.apiKey, apiSecret: configuration.apiSecret)
    }
}
