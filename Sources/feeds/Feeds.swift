import ArgumentParser

/// The `feeds` executable: thin commands over the libraries.
@main
struct Feeds: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A self-hostable activity-feeds server speaking Stream's Feeds REST API.",
        subcommands: [Serve.self, Migrate.self, Token.self, GC.self, App.self, LoadTest.self],
        defaultSubcommand: Serve.self
    )
}
