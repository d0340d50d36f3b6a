/// A JSON object's text as the database wrote it, passed to the reply as it is: a notification's
/// context is written once and read on every page, where parsing it only to write it again was a
/// seventh of the page's time.
public struct JSONObjectText: Sendable, Hashable {
    public let text: String

    /// `text` must be a JSON object: the database's own output of a `jsonb` object.
    public init(trusted text: String) {
        self.text = text
    }
}
