-- One page of 25 through the bench's popular view (a `popular` selector, min_popularity 5 over a
-- week, ranked by `decay_linear(time) * popularity ^ 0.5`), read by one of the eight readers:
-- the same SELECT as PostgresActivityStore.viewSQL; BenchSQLTests fails when the two drift apart.
\set u random(0, 7)
SELECT a.id, a.type, a.text, a.feeds, a.visibility, a.visibility_tag, a.restrict_replies, a.custom::text,
a.created_at, a.updated_at, a.edited_at, a.deleted_at, a.expires_at, a.poll_id, a.parent_id, a.mentioned_user_ids,
COALESCE((
    SELECT json_agg(json_build_object('p', t.payload, 'k', t.object_key) ORDER BY t.position)
    FROM attachments t LEFT JOIN cdn_objects o ON o.key = t.object_key
    WHERE t.activity_id = a.id AND (t.object_key IS NULL OR o.state NOT IN ('deleting', 'deleted'))
), '[]')::text,
u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at,
a.reaction_count, a.reaction_groups::text, a.bookmark_count, a.comment_count, a.share_count,
CASE WHEN a.reaction_count > 0 THEN (CASE WHEN (EXISTS (SELECT 1 FROM user_blocks WHERE user_id = 'tl-' || :u::text)
    OR EXISTS (SELECT 1 FROM user_blocks WHERE blocked_user_id = 'tl-' || :u::text)) THEN (
    SELECT json_agg(json_build_array(r.type, r.custom, (extract(epoch FROM r.created_at) * 1000000)::int8, (extract(epoch FROM r.updated_at) * 1000000)::int8,
        json_build_array(ru.id, ru.name, ru.image, ru.role, ru.language, ru.teams, ru.custom, (extract(epoch FROM ru.created_at) * 1000000)::int8, (extract(epoch FROM ru.updated_at) * 1000000)::int8)) ORDER BY r.created_at DESC, r.user_id DESC, r.type DESC)
    FROM (
        SELECT * FROM activity_reactions lr WHERE lr.activity_id = a.id AND NOT EXISTS (SELECT 1 FROM user_blocks ub WHERE (ub.user_id = 'tl-' || :u::text AND ub.blocked_user_id = lr.user_id)
    OR (ub.user_id = lr.user_id AND ub.blocked_user_id = 'tl-' || :u::text))
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
    WHERE r.activity_id = a.id AND r.user_id = 'tl-' || :u::text
)::text END,
CASE WHEN a.bookmark_count > 0 THEN (
    SELECT json_agg(json_build_array(b.custom, (extract(epoch FROM b.created_at) * 1000000)::int8, (extract(epoch FROM b.updated_at) * 1000000)::int8, json_build_array(bu.id, bu.name, bu.image, bu.role, bu.language, bu.teams, bu.custom, (extract(epoch FROM bu.created_at) * 1000000)::int8, (extract(epoch FROM bu.updated_at) * 1000000)::int8),
        bf.id, bf.name, bf.custom, (extract(epoch FROM bf.created_at) * 1000000)::int8, (extract(epoch FROM bf.updated_at) * 1000000)::int8)
        ORDER BY b.created_at DESC, bf.id DESC)
    FROM bookmarks b JOIN users bu ON bu.id = b.user_id LEFT JOIN bookmark_folders bf ON bf.id = b.folder_id
    WHERE b.activity_id = a.id AND b.user_id = 'tl-' || :u::text AND b.comment_id IS NULL
)::text END,
CASE WHEN a.reaction_count + a.comment_count > 0 AND (EXISTS (SELECT 1 FROM user_blocks WHERE user_id = 'tl-' || :u::text)
    OR EXISTS (SELECT 1 FROM user_blocks WHERE blocked_user_id = 'tl-' || :u::text)) THEN json_build_array(
    (SELECT json_object_agg(h.type, h.n) FROM (
        SELECT hr.type, count(*) AS n FROM activity_reactions hr
        WHERE hr.activity_id = a.id AND hr.user_id IN (SELECT blocked_user_id FROM user_blocks WHERE user_id = 'tl-' || :u::text
        UNION ALL SELECT user_id FROM user_blocks WHERE blocked_user_id = 'tl-' || :u::text) GROUP BY hr.type) h),
    (SELECT count(*) FROM comments hc
        WHERE hc.activity_id = a.id AND hc.deleted_at IS NULL AND hc.user_id IN (SELECT blocked_user_id FROM user_blocks WHERE user_id = 'tl-' || :u::text
        UNION ALL SELECT user_id FROM user_blocks WHERE blocked_user_id = 'tl-' || :u::text))
)::text END,
(a.visibility = 'tag' AND a.user_id <> 'tl-' || :u::text AND NOT tag_readable(a.feeds, a.visibility_tag, 'tl-' || :u::text)),
EXISTS (SELECT 1 FROM activity_feedback af WHERE af.activity_id = a.id AND af.user_id = 'tl-' || :u::text AND af.hidden),
(extract(epoch FROM a.created_at) * 1000000)::bigint, s.score FROM (
    SELECT a.id, COALESCE(rk(GREATEST(rk_div(172800::float8 - GREATEST(abs(rk(extract(epoch FROM a.created_at)::float8 - extract(epoch FROM now())::float8)) - 0::float8, 0), 172800::float8), 0) * rk_pow((a.reaction_count + 2 * a.comment_count + 3 * a.bookmark_count)::float8, rk(0.5::float8))), 0) AS score FROM (SELECT p.id, (ARRAY['popular']::text[])[p.k + 1] AS src FROM (SELECT DISTINCT ON (id) id, k FROM ((SELECT a.id, 0 AS k FROM activities a WHERE a.visibility = 'public' AND (a.reaction_count + 2 * a.comment_count + 3 * a.bookmark_count) >= 5 AND a.deleted_at IS NULL AND (a.expires_at IS NULL OR a.expires_at > now()) AND NOT EXISTS (SELECT 1 FROM activity_feedback af WHERE af.activity_id = a.id AND af.user_id = 'tl-' || :u::text AND af.hidden) AND (a.user_id = 'tl-' || :u::text OR (a.visibility IN ('public', 'tag') AND EXISTS (
    SELECT 1 FROM feeds rf WHERE rf.fid = ANY(a.feeds) AND (rf.created_by = 'tl-' || :u::text OR rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'user' AND rg.action = 'read')::text[])
    OR (rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_follower' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM follows rw JOIN feeds rs ON rs.fid = rw.source_fid
        WHERE rw.target_fid = rf.fid AND rw.status = 'accepted' AND rs.created_by = 'tl-' || :u::text))
    OR (rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_member' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM feed_members rm WHERE rm.fid = rf.fid AND rm.user_id = 'tl-' || :u::text AND rm.status = 'member'))))
    AND NOT EXISTS (SELECT 1 FROM user_blocks ub WHERE (ub.user_id = 'tl-' || :u::text AND ub.blocked_user_id = a.user_id)
    OR (ub.user_id = a.user_id AND ub.blocked_user_id = 'tl-' || :u::text)))) AND a.created_at > to_timestamp(extract(epoch FROM now())::float8) - 604800 * interval '1 second' ORDER BY a.created_at DESC, a.id DESC LIMIT 1000)) c ORDER BY id, k) p) p
    JOIN activities a ON a.id = p.id) s
JOIN activities a ON a.id = s.id JOIN users u ON u.id = a.user_id ORDER BY s.score DESC, s.id DESC LIMIT 26;
