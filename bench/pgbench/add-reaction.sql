-- AddActivityReaction as the server runs it: the InsertReaction statement (users loadtest-0…99
-- react to the activities numbered in bench_reaction_targets, with one of four types), then the
-- activity read back with the reactor's own reactions and bookmarks. BenchSQLTests holds both to
-- the server's SQL, word for word.
\set n random(1, 10000)
\set u random(0, 99)
\set t random(1, 4)
WITH new_user AS (
    INSERT INTO users (id) VALUES ('loadtest-' || :u::text) ON CONFLICT (id) DO NOTHING RETURNING id, name, image, role, language, teams, custom::text, created_at, updated_at
), reactor AS (
    SELECT id, name, image, role, language, teams, custom::text, created_at, updated_at FROM new_user UNION ALL SELECT id, name, image, role, language, teams, custom::text, created_at, updated_at FROM users WHERE id = 'loadtest-' || :u::text
), target AS (
    SELECT a.id FROM activities a
    WHERE a.id = (SELECT id FROM bench_reaction_targets WHERE n = :n) AND a.deleted_at IS NULL AND (a.expires_at IS NULL OR a.expires_at > now()) AND ('loadtest-' || :u::text::text IS NULL OR (a.user_id = 'loadtest-' || :u::text OR ((a.visibility = 'public' OR (a.visibility = 'tag'
    AND tag_readable(a.feeds, a.visibility_tag, 'loadtest-' || :u::text))) AND EXISTS (
    SELECT 1 FROM feeds rf WHERE rf.fid = ANY(a.feeds) AND (rf.created_by = 'loadtest-' || :u::text OR rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'user' AND rg.action = 'engage')::text[])
    OR (rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_follower' AND rg.action = 'engage')::text[]) AND EXISTS (
        SELECT 1 FROM follows rw JOIN feeds rs ON rs.fid = rw.source_fid
        WHERE rw.target_fid = rf.fid AND rw.status = 'accepted' AND rs.created_by = 'loadtest-' || :u::text))
    OR (rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_member' AND rg.action = 'engage')::text[]) AND EXISTS (
        SELECT 1 FROM feed_members rm WHERE rm.fid = rf.fid AND rm.user_id = 'loadtest-' || :u::text AND rm.status = 'member'))))
    AND NOT EXISTS (SELECT 1 FROM user_blocks ub WHERE (ub.user_id = 'loadtest-' || :u::text AND ub.blocked_user_id = a.user_id)
    OR (ub.user_id = a.user_id AND ub.blocked_user_id = 'loadtest-' || :u::text)))))
), room AS (
    SELECT target.id FROM target
    WHERE false OR EXISTS (SELECT 1 FROM activity_reactions r WHERE r.activity_id = target.id AND r.user_id = 'loadtest-' || :u::text AND r.type = (ARRAY['like','heart','wow','fire'])[:t])
       OR (SELECT count(*) FROM activity_reactions r WHERE r.activity_id = target.id AND r.user_id = 'loadtest-' || :u::text) < 25
), others AS (
    DELETE FROM activity_reactions r USING target
    WHERE false AND r.activity_id = target.id AND r.user_id = 'loadtest-' || :u::text AND r.type <> (ARRAY['like','heart','wow','fire'])[:t]
), stored AS (
    INSERT INTO activity_reactions (activity_id, user_id, type, custom)
    SELECT room.id, 'loadtest-' || :u::text, (ARRAY['like','heart','wow','fire'])[:t], '{}'::jsonb FROM room
    ON CONFLICT (activity_id, user_id, type) DO UPDATE SET custom = EXCLUDED.custom,
        updated_at = CASE WHEN activity_reactions.custom = EXCLUDED.custom THEN activity_reactions.updated_at ELSE now() END
    RETURNING type, custom::text, created_at, updated_at
)
SELECT stored.*, reactor.* FROM stored LEFT JOIN reactor ON true LIMIT 1;
SELECT a.id, a.type, a.text, a.feeds, a.visibility, a.visibility_tag, a.restrict_replies, a.custom::text,
a.created_at, a.updated_at, a.edited_at, a.deleted_at, a.expires_at, a.poll_id, a.parent_id, a.mentioned_user_ids,
COALESCE((
    SELECT json_agg(json_build_object('p', t.payload, 'k', t.object_key) ORDER BY t.position)
    FROM attachments t LEFT JOIN cdn_objects o ON o.key = t.object_key
    WHERE t.activity_id = a.id AND (t.object_key IS NULL OR o.state NOT IN ('deleting', 'deleted'))
), '[]')::text,
u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at,
a.reaction_count, a.reaction_groups::text, a.bookmark_count, a.comment_count, a.share_count,
CASE WHEN a.reaction_count > 0 THEN ((
    SELECT json_agg(json_build_array(r.type, r.custom, (extract(epoch FROM r.created_at) * 1000000)::int8, (extract(epoch FROM r.updated_at) * 1000000)::int8,
        json_build_array(ru.id, ru.name, ru.image, ru.role, ru.language, ru.teams, ru.custom, (extract(epoch FROM ru.created_at) * 1000000)::int8, (extract(epoch FROM ru.updated_at) * 1000000)::int8)) ORDER BY r.created_at DESC, r.user_id DESC, r.type DESC)
    FROM (
        SELECT * FROM activity_reactions lr WHERE lr.activity_id = a.id
        ORDER BY lr.created_at DESC, lr.user_id DESC, lr.type DESC LIMIT 5
    ) r JOIN users ru ON ru.id = r.user_id
))::text END,
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
NULL::text,
(a.visibility = 'tag' AND a.user_id <> 'loadtest-' || :u::text AND NOT tag_readable(a.feeds, a.visibility_tag, 'loadtest-' || :u::text)),
EXISTS (SELECT 1 FROM activity_feedback af WHERE af.activity_id = a.id AND af.user_id = 'loadtest-' || :u::text AND af.hidden),
(extract(epoch FROM a.created_at) * 1000000)::bigint FROM activities a JOIN users u ON u.id = a.user_id WHERE true AND a.deleted_at IS NULL AND (a.expires_at IS NULL OR a.expires_at > now()) AND a.id = (SELECT id FROM bench_reaction_targets WHERE n = :n) AND (a.user_id = 'loadtest-' || :u::text OR (a.visibility IN ('public', 'tag') AND EXISTS (
    SELECT 1 FROM feeds rf WHERE rf.fid = ANY(a.feeds) AND (rf.created_by = 'loadtest-' || :u::text OR rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'user' AND rg.action = 'read')::text[])
    OR (rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_follower' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM follows rw JOIN feeds rs ON rs.fid = rw.source_fid
        WHERE rw.target_fid = rf.fid AND rw.status = 'accepted' AND rs.created_by = 'loadtest-' || :u::text))
    OR (rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_member' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM feed_members rm WHERE rm.fid = rf.fid AND rm.user_id = 'loadtest-' || :u::text AND rm.status = 'member'))))
    AND NOT EXISTS (SELECT 1 FROM user_blocks ub WHERE (ub.user_id = 'loadtest-' || :u::text AND ub.blocked_user_id = a.user_id)
    OR (ub.user_id = a.user_id AND ub.blocked_user_id = 'loadtest-' || :u::text)))) ORDER BY a.created_at DESC, a.id DESC LIMIT 2;
