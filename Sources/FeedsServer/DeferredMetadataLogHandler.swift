import FeedsCore
import Logging

/// Writes through swift-log's `StreamLogHandler`, but keeps metadata as it is set and renders it
/// only when a line is written. `StreamLogHandler` renders all of a logger's metadata into text
/// each time a key is set; every request sets three (Hummingbird's id, ours, the caller), and at
/// the default level most requests write no line at all.
public struct DeferredMetadataLogHandler: LogHandler {
    private var output: StreamLogHandler
    public var metadata: Logger.Metadata = [:]

    public init(_ output: StreamLogHandler) {
        self.output = output
    }

    /// Lines to standard error, as swift-log's default handler writes them.
    public init(label: String) {
        self.init(.standardError(label: label))
    }

    public var logLevel: Logger.Level {
        get { output.logLevel }
        set { output.logLevel = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { output.metadataProvider }
        set { output.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes the line, with any secret in its message or metadata scrubbed (`Redaction`): the
    /// last guard before the log, whoever wrote the line.
    public func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty { event.metadata = metadata.merging(event.metadata ?? [:]) { $1 } }
        event.message = "\(Redaction.scrub(event.message.description))"
        event.metadata = event.metadata?.mapValues { value in
            if case .string(let text) = value { .string(Redaction.scrub(text)) } else { .string(Redaction.scrub("\(value)")) }
        }
        output.log(event: event)
    }
}
