-- One page of 25 of a user's feed, read by that user, with its reactions, bookmarks and comment
-- counts and the reader's own reactions and bookmarks: the same SELECT as
-- PostgresActivityStore.queryActivities for one feed (ActivityRow.columns, limit + 1);
-- BenchSQLTests fails when the two drift apart.
-- (pgbench would take the colon of 'user:' for a variable, hence E'user\x3a…'.)
\set u random(0, 99)
SELECT a.id, a.type, a.text, a.feeds, a.visibility, a.visibility_tag, a.restrict_replies, a.custom::text,
a.created_at, a.updated_at, a.edited_at, a.deleted_at, a.expires_at, a.poll_id, a.parent_id, a.mentioned_user_ids,
COALESCE((
    SELECT json_agg(json_build_object('p', t.payload, 'k', t.object_key) ORDER BY t.position)
    FROM attachments t LEFT JOIN cdn_objects o ON o.key = t.object_key
    WHERE t.activity_id = a.id AND (t.object_key IS NULL OR o.state NOT IN ('deleting', 'deleted'))
), '[]')::text,
u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at,
a.reaction_count, a.reaction_groups::text, a.bookmark_count, a.comment_count, a.share_count,
CASE WHEN a.reaction_count > 0 THEN (CASE WHEN (EXISTS (SELECT 1 FROM user_blocks WHERE user_id = 'loadtest-' || :u::text)
    OR EXISTS (SELECT 1 FROM user_blocks WHERE blocked_user_id = 'loadtest-' || :u::text)) THEN (
    SELECT json_agg(json_build_array(r.type, r.custom, (extract(epoch FROM r.created_at) * 1000000)::int8, (extract(epoch FROM r.updated_at) * 1000000)::int8,
        json_build_array(ru.id, ru.name, ru.image, ru.role, ru.language, ru.teams, ru.custom, (extract(epoch FROM ru.created_at) * 1000000)::int8, (extract(epoch FROM ru.updated_at) * 1000000)::int8)) ORDER BY r.created_at DESC, r.user_id DESC, r.type DESC)
    FROM (
        SELECT * FROM activity_reactions lr WHERE lr.activity_id = a.id AND NOT EXISTS (SELECT 1 FROM user_blocks ub WHERE (ub.user_id = 'loadtest-' || :u::text AND ub.blocked_user_id = lr.user_id)
    OR (ub.user_id = lr.user_id AND ub.blocked_user_id = 'loadtest-' || :u::text))
        ORDER BY lr.created_at DESC, lr.user_id DESC, lr.type DESC LIMIT 5
    ) r JOIN users ru ON ru.id = r.user_id
) ELSE (
    SELECT json_agg(json_build_array(r.type, r.custom, (extract(epoch FROM r.created_at) * 1000000)::int8, (extract(epoch FROM r.updated_at) * 1000000)::int8,
        json_build_array(ru.id, ru.name, ru.image, ru.role, ru.language, ru.teams, ru.custom, (extract(epoch FROM ru.created_at) * 1000000)::int8, (extract(epoch FROM ru.updated_at) * 1000000)::int8)) ORDER BY r.created_at DESC, r.user_id DESC, r.type DESC)
    FROM (
        SELECT * FROM activity_reactions lr WHERE lr.activity_id = a.id
        ORDER BY lr.created_at DESC, lr.user_id DESC, lr.type DESC LIMIT 5
    ) r JOIN users ru ON ru.id = r.user_id
) END)::text END,
CASE WHEN a.reaction_count > 0 THEN (
    SELECT json_agg(json_build_array(r.type, r.custom, (extract(epoch FROM r.created_at) * 1000000)::int8, (extract(epoch FROM r.updated_at) * 1000000)::int8,
        json_build_array(ru.id, ru.name, ru.image, ru.role, ru.language, ru.teams, ru.custom, (extract(epoch FROM ru.created_at) * 1000000)::int8, (extract(epoch FROM ru.updated_at) * 1000000)::int8)) ORDER BY r.created_at DESC, r.type DESC)
    FROM activity_reactions r JOIN users ru ON ru.id = r.user_id
    WHERE r.activity_id = a.id AND r.user_id = 'loadtest-' || :u::text
)::text END,
CASE WHEN a.bookmark_count > 0 THEN (
    SELECT json_agg(json_build_array(b.custom, (extract(epoch FROM b.created_at) * 1000000)::int8, (extract(epoch FROM b.updated_at) * 1000000)::int8, json_build_array(bu.id, bu.name, bu.image, bu.role, bu.language, bu.teams, bu.custom, (extract(epoch FROM bu.created_at) * 1000000)::int8, (extract(epoch FROM bu.updated_at) * 1000000)::int8),
        bf.id, bf.name, bf.custom, (extract(epoch FROM bf.created_at) * 1000000)::int8, (extract(epoch FROM bf.updated_at) * 1000000)::int8)
        ORDER BY b.created_at DESC, bf.id DESC)
    FROM bookmarks b JOIN users bu ON bu.id = b.user_id LEFT JOIN bookmark_folders bf ON bf.id = b.folder_id
    WHERE b.activity_id = a.id AND b.user_id = 'loadtest-' || :u::text AND b.comment_id IS NULL
)::text END,
CASE WHEN a.reaction_count + a.comment_count > 0 AND (EXISTS (SELECT 1 FROM user_blocks WHERE user_id = 'loadtest-' || :u::text)
    OR EXISTS (SELECT 1 FROM user_blocks WHERE blocked_user_id = 'loadtest-' || :u::text)) THEN json_build_array(
    (SELECT json_object_agg(h.type, h.n) FROM (
        SELECT hr.type, count(*) AS n FROM activity_reactions hr
        WHERE hr.activity_id = a.id AND hr.user_id IN (SELECT blocked_user_id FROM user_blocks WHERE user_id = 'loadtest-' || :u::text
        UNION ALL SELECT user_id FROM user_blocks WHERE blocked_user_id = 'loadtest-' || :u::text) GROUP BY hr.type) h),
    (SELECT count(*) FROM comments hc
        WHERE hc.activity_id = a.id AND hc.deleted_at IS NULL AND hc.user_id IN (SELECT blocked_user_id FROM user_blocks WHERE user_id = 'loadtest-' || :u::text
        UNION ALL SELECT user_id FROM user_blocks WHERE blocked_user_id = 'loadtest-' || :u::text))
)::text END,
(a.visibility = 'tag' AND a.user_id <> 'loadtest-' || :u::text AND NOT tag_readable(a.feeds, a.visibility_tag, 'loadtest-' || :u::text)),
EXISTS (SELECT 1 FROM activity_feedback af WHERE af.activity_id = a.id AND af.user_id = 'loadtest-' || :u::text AND af.hidden),
(extract(epoch FROM a.created_at) * 1000000)::bigint FROM activity_feeds f JOIN activities a ON a.id = f.activity_id JOIN users u ON u.id = a.user_id WHERE f.feed = E'user\x3aloadtest-' || :u::text AND EXISTS (SELECT 1 FROM feeds qf WHERE qf.fid = E'user\x3aloadtest-' || :u::text AND (qf.created_by = 'loadtest-' || :u::text OR qf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'user' AND rg.action = 'read')::text[])
    OR (qf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_follower' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM follows rw JOIN feeds rs ON rs.fid = rw.source_fid
        WHERE rw.target_fid = qf.fid AND rw.status = 'accepted' AND rs.created_by = 'loadtest-' || :u::text))
    OR (qf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_member' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM feed_members rm WHERE rm.fid = qf.fid AND rm.user_id = 'loadtest-' || :u::text AND rm.status = 'member')))) AND a.deleted_at IS NULL AND (a.expires_at IS NULL OR a.expires_at > now()) AND NOT EXISTS (SELECT 1 FROM activity_feedback af WHERE af.activity_id = a.id AND af.user_id = 'loadtest-' || :u::text AND af.hidden) AND (a.user_id = 'loadtest-' || :u::text OR (a.visibility IN ('public', 'tag') AND EXISTS (
    SELECT 1 FROM feeds rf WHERE rf.fid = ANY(a.feeds) AND (rf.created_by = 'loadtest-' || :u::text OR rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'user' AND rg.action = 'read')::text[])
    OR (rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_follower' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM follows rw JOIN feeds rs ON rs.fid = rw.source_fid
        WHERE rw.target_fid = rf.fid AND rw.status = 'accepted' AND rs.created_by = 'loadtest-' || :u::text))
    OR (rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_member' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM feed_members rm WHERE rm.fid = rf.fid AND rm.user_id = 'loadtest-' || :u::text AND rm.status = 'member'))))
    AND NOT EXISTS (SELECT 1 FROM user_blocks ub WHERE (ub.user_id = 'loadtest-' || :u::text AND ub.blocked_user_id = a.user_id)
    OR (ub.user_id = a.user_id AND ub.blocked_user_id = 'loadtest-' || :u::text)))) ORDER BY f.created_at DESC, f.activity_id DESC LIMIT 26;
