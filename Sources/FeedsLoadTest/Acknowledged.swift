/// A write the server acknowledged: what the loss check reads back afterwards.
public enum Acknowledged: Sendable, Hashable {
    /// An activity: its id, its author (user number), its text, and its uploaded file, if any.
    case activity(id: String, user: Int, text: String, file: TestFile?)
    /// A standalone upload: the URL handed out and the file sent.
    case upload(url: String, user: Int, file: TestFile)
}
