-- One page of 25 of a user's feed, read by that user: the same SELECT as
-- PostgresActivityStore.queryActivities for one feed (ActivityRow.columns, limit + 1);
-- BenchSQLTests fails when the two drift apart.
-- (pgbench would take the colon of 'user:' for a variable, hence E'user\x3a…'.)
\set u random(0, 99)
SELECT a.id, a.type, a.text, a.feeds, a.visibility, a.visibility_tag, a.restrict_replies, a.custom::text,
    a.created_at, a.updated_at, a.edited_at, a.deleted_at,
    COALESCE((
        SELECT json_agg(json_build_object('p', t.payload, 'k', t.object_key) ORDER BY t.position)
        FROM attachments t LEFT JOIN cdn_objects o ON o.key = t.object_key
        WHERE t.activity_id = a.id AND (t.object_key IS NULL OR o.state NOT IN ('deleting', 'deleted'))
    ), '[]')::text,
    u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at,
    (extract(epoch FROM a.created_at) * 1000000)::bigint
FROM activity_feeds f JOIN activities a ON a.id = f.activity_id JOIN users u ON u.id = a.user_id
WHERE f.feed = E'user\x3aloadtest-' || :u::text AND a.deleted_at IS NULL
    AND (a.visibility = 'public' OR a.user_id = 'loadtest-' || :u::text)
ORDER BY f.created_at DESC, f.activity_id DESC LIMIT 26;
