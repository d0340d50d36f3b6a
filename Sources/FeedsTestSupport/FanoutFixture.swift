/// SQL that builds a follow graph fast, for tests and benches: fans with private timelines
/// following one feed, all accepted.
public enum FanoutFixture {
    public static func fans(_ count: Int, of target: String, prefix: String = "fan") -> [String] {
        [
            "INSERT INTO users (id) SELECT '\(prefix)' || n FROM generate_series(1, \(count)) n ON CONFLICT DO NOTHING",
            """
            INSERT INTO feeds (fid, group_id, feed_id, created_by, visibility)
            SELECT 'timeline:\(prefix)' || n, 'timeline', '\(prefix)' || n, '\(prefix)' || n, 'private'
            FROM generate_series(1, \(count)) n ON CONFLICT DO NOTHING
            """,
            """
            INSERT INTO follows (source_fid, target_fid, status) SELECT 'timeline:\(prefix)' || n, '\(target)', 'accepted'
            FROM generate_series(1, \(count)) n ON CONFLICT DO NOTHING
            """,
            "UPDATE feeds SET follower_count = follower_count + \(count) WHERE fid = '\(target)'",
        ]
    }
}
