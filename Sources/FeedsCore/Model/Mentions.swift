/// The users an activity or a comment names (`mentioned_user_ids`): at most `max`, each id 1 to
/// 255 bytes, each once, in the order given.
public enum Mentions {
    public static let max = 25

    public static func checked(_ ids: [String]?, field: String = "mentioned_user_ids") throws(FeedsError) -> [String] {
        guard let ids else { return [] }
        guard ids.count <= max else { throw .input("\(field) takes at most \(max) users", field: field) }
        guard ids.allSatisfy({ (1...255).contains($0.utf8.count) }) else {
            throw .input("each of \(field) is 1 to 255 bytes", field: field)
        }
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }
}
