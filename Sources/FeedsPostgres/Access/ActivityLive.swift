/// An activity that is there, as SQL: not deleted, and not past its `expires_at` (a story's 24
/// hours). Every read and every write that needs the activity uses it, so an expired activity
/// vanishes from all of them at once, before the expiry service deletes it.
enum ActivityLive {
    static func predicate(_ activity: String) -> String {
        "\(activity).deleted_at IS NULL AND (\(activity).expires_at IS NULL OR \(activity).expires_at > now())"
    }
}
