-- A page of 25 of a user's feed whose activities each carry a poll (bench/poll-data.sql), read
-- by that user: the feed page's SELECT (as in read-feed.sql), then the three reads of the page's
-- polls (PostgresPollStore.polls: the polls, their options, the votes shown and the reader's
-- own), the ids those of the page's 25 polls. BenchSQLTests holds all four to the server's SQL.
-- (pgbench would take the colon of 'user:' for a variable, hence E'user\x3a…'.)
\set u random(0, 15)
SELECT a.id, a.type, a.text, a.feeds, a.visibility, a.visibility_tag, a.restrict_replies, a.custom::text,
a.created_at, a.updated_at, a.edited_at, a.deleted_at, a.expires_at, a.poll_id, a.parent_id, a.mentioned_user_ids,
COALESCE((
    SELECT json_agg(json_build_object('p', t.payload, 'k', t.object_key) ORDER BY t.position)
    FROM attachments t LEFT JOIN cdn_objects o ON o.key = t.object_key
    WHERE t.activity_id = a.id AND (t.object_key IS NULL OR o.state NOT IN ('deleting', 'deleted'))
), '[]')::text,
u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at,
a.reaction_count, a.reaction_groups::text, a.bookmark_count, a.comment_count, a.share_count,
CASE WHEN a.reaction_count > 0 THEN (CASE WHEN (EXISTS (SELECT 1 FROM user_blocks WHERE user_id = 'pollpage-' || :u::text)
    OR EXISTS (SELECT 1 FROM user_blocks WHERE blocked_user_id = 'pollpage-' || :u::text)) THEN (
    SELECT json_agg(json_build_array(r.type, r.custom, (extract(epoch FROM r.created_at) * 1000000)::int8, (extract(epoch FROM r.updated_at) * 1000000)::int8,
        json_build_array(ru.id, ru.name, ru.image, ru.role, ru.language, ru.teams, ru.custom, (extract(epoch FROM ru.created_at) * 1000000)::int8, (extract(epoch FROM ru.updated_at) * 1000000)::int8)) ORDER BY r.created_at DESC, r.user_id DESC, r.type DESC)
    FROM (
        SELECT * FROM activity_reactions lr WHERE lr.activity_id = a.id AND NOT EXISTS (SELECT 1 FROM user_blocks ub WHERE (ub.user_id = 'pollpage-' || :u::text AND ub.blocked_user_id = lr.user_id)
    OR (ub.user_id = lr.user_id AND ub.blocked_user_id = 'pollpage-' || :u::text))
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
    WHERE r.activity_id = a.id AND r.user_id = 'pollpage-' || :u::text
)::text END,
CASE WHEN a.bookmark_count > 0 THEN (
    SELECT json_agg(json_build_array(b.custom, (extract(epoch FROM b.created_at) * 1000000)::int8, (extract(epoch FROM b.updated_at) * 1000000)::int8, json_build_array(bu.id, bu.name, bu.image, bu.role, bu.language, bu.teams, bu.custom, (extract(epoch FROM bu.created_at) * 1000000)::int8, (extract(epoch FROM bu.updated_at) * 1000000)::int8),
        bf.id, bf.name, bf.custom, (extract(epoch FROM bf.created_at) * 1000000)::int8, (extract(epoch FROM bf.updated_at) * 1000000)::int8)
        ORDER BY b.created_at DESC, bf.id DESC)
    FROM bookmarks b JOIN users bu ON bu.id = b.user_id LEFT JOIN bookmark_folders bf ON bf.id = b.folder_id
    WHERE b.activity_id = a.id AND b.user_id = 'pollpage-' || :u::text AND b.comment_id IS NULL
)::text END,
CASE WHEN a.reaction_count + a.comment_count > 0 AND (EXISTS (SELECT 1 FROM user_blocks WHERE user_id = 'pollpage-' || :u::text)
    OR EXISTS (SELECT 1 FROM user_blocks WHERE blocked_user_id = 'pollpage-' || :u::text)) THEN json_build_array(
    (SELECT json_object_agg(h.type, h.n) FROM (
        SELECT hr.type, count(*) AS n FROM activity_reactions hr
        WHERE hr.activity_id = a.id AND hr.user_id IN (SELECT blocked_user_id FROM user_blocks WHERE user_id = 'pollpage-' || :u::text
        UNION ALL SELECT user_id FROM user_blocks WHERE blocked_user_id = 'pollpage-' || :u::text) GROUP BY hr.type) h),
    (SELECT count(*) FROM comments hc
        WHERE hc.activity_id = a.id AND hc.deleted_at IS NULL AND hc.user_id IN (SELECT blocked_user_id FROM user_blocks WHERE user_id = 'pollpage-' || :u::text
        UNION ALL SELECT user_id FROM user_blocks WHERE blocked_user_id = 'pollpage-' || :u::text))
)::text END,
(a.visibility = 'tag' AND a.user_id <> 'pollpage-' || :u::text AND NOT tag_readable(a.feeds, a.visibility_tag, 'pollpage-' || :u::text)),
EXISTS (SELECT 1 FROM activity_feedback af WHERE af.activity_id = a.id AND af.user_id = 'pollpage-' || :u::text AND af.hidden),
(extract(epoch FROM a.created_at) * 1000000)::bigint FROM activity_feeds f JOIN activities a ON a.id = f.activity_id JOIN users u ON u.id = a.user_id WHERE f.feed = E'user\x3apollpage-' || :u::text AND EXISTS (SELECT 1 FROM feeds qf WHERE qf.fid = E'user\x3apollpage-' || :u::text AND (qf.created_by = 'pollpage-' || :u::text OR qf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'user' AND rg.action = 'read')::text[])
    OR (qf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_follower' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM follows rw JOIN feeds rs ON rs.fid = rw.source_fid
        WHERE rw.target_fid = qf.fid AND rw.status = 'accepted' AND rs.created_by = 'pollpage-' || :u::text))
    OR (qf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_member' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM feed_members rm WHERE rm.fid = qf.fid AND rm.user_id = 'pollpage-' || :u::text AND rm.status = 'member')))) AND a.deleted_at IS NULL AND (a.expires_at IS NULL OR a.expires_at > now()) AND NOT EXISTS (SELECT 1 FROM activity_feedback af WHERE af.activity_id = a.id AND af.user_id = 'pollpage-' || :u::text AND af.hidden) AND (a.user_id = 'pollpage-' || :u::text OR (a.visibility IN ('public', 'tag') AND EXISTS (
    SELECT 1 FROM feeds rf WHERE rf.fid = ANY(a.feeds) AND (rf.created_by = 'pollpage-' || :u::text OR rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'user' AND rg.action = 'read')::text[])
    OR (rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_follower' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM follows rw JOIN feeds rs ON rs.fid = rw.source_fid
        WHERE rw.target_fid = rf.fid AND rw.status = 'accepted' AND rs.created_by = 'pollpage-' || :u::text))
    OR (rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_member' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM feed_members rm WHERE rm.fid = rf.fid AND rm.user_id = 'pollpage-' || :u::text AND rm.status = 'member'))))
    AND NOT EXISTS (SELECT 1 FROM user_blocks ub WHERE (ub.user_id = 'pollpage-' || :u::text AND ub.blocked_user_id = a.user_id)
    OR (ub.user_id = a.user_id AND ub.blocked_user_id = 'pollpage-' || :u::text)))) ORDER BY f.created_at DESC, f.activity_id DESC LIMIT 26;
SELECT p.id, p.name, p.description, p.voting_visibility, p.enforce_unique_vote, p.max_votes_allowed,
    p.allow_user_suggested_options, p.allow_answers, p.is_closed, p.custom::text, p.vote_count, p.answers_count,
    p.created_at, p.updated_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at
FROM polls p JOIN users u ON u.id = p.created_by WHERE p.id = ANY(ARRAY['pp-' || :u::text || '-25', 'pp-' || :u::text || '-24', 'pp-' || :u::text || '-23', 'pp-' || :u::text || '-22', 'pp-' || :u::text || '-21', 'pp-' || :u::text || '-20', 'pp-' || :u::text || '-19', 'pp-' || :u::text || '-18', 'pp-' || :u::text || '-17', 'pp-' || :u::text || '-16', 'pp-' || :u::text || '-15', 'pp-' || :u::text || '-14', 'pp-' || :u::text || '-13', 'pp-' || :u::text || '-12', 'pp-' || :u::text || '-11', 'pp-' || :u::text || '-10', 'pp-' || :u::text || '-9', 'pp-' || :u::text || '-8', 'pp-' || :u::text || '-7', 'pp-' || :u::text || '-6', 'pp-' || :u::text || '-5', 'pp-' || :u::text || '-4', 'pp-' || :u::text || '-3', 'pp-' || :u::text || '-2', 'pp-' || :u::text || '-1']);
SELECT poll_id, id, text, custom::text, vote_count FROM poll_options WHERE poll_id = ANY(ARRAY['pp-' || :u::text || '-25', 'pp-' || :u::text || '-24', 'pp-' || :u::text || '-23', 'pp-' || :u::text || '-22', 'pp-' || :u::text || '-21', 'pp-' || :u::text || '-20', 'pp-' || :u::text || '-19', 'pp-' || :u::text || '-18', 'pp-' || :u::text || '-17', 'pp-' || :u::text || '-16', 'pp-' || :u::text || '-15', 'pp-' || :u::text || '-14', 'pp-' || :u::text || '-13', 'pp-' || :u::text || '-12', 'pp-' || :u::text || '-11', 'pp-' || :u::text || '-10', 'pp-' || :u::text || '-9', 'pp-' || :u::text || '-8', 'pp-' || :u::text || '-7', 'pp-' || :u::text || '-6', 'pp-' || :u::text || '-5', 'pp-' || :u::text || '-4', 'pp-' || :u::text || '-3', 'pp-' || :u::text || '-2', 'pp-' || :u::text || '-1']) ORDER BY poll_id, position;
SELECT 'latest', v.id, v.poll_id, v.option_id, v.answer_text, v.created_at, v.updated_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at FROM poll_options o
CROSS JOIN LATERAL (
    SELECT * FROM poll_votes v WHERE v.poll_id = o.poll_id AND v.option_id = o.id
    ORDER BY v.created_at DESC, v.id DESC LIMIT 10
) v JOIN users u ON u.id = v.user_id
WHERE o.poll_id = ANY(ARRAY['pp-' || :u::text || '-25', 'pp-' || :u::text || '-24', 'pp-' || :u::text || '-23', 'pp-' || :u::text || '-22', 'pp-' || :u::text || '-21', 'pp-' || :u::text || '-20', 'pp-' || :u::text || '-19', 'pp-' || :u::text || '-18', 'pp-' || :u::text || '-17', 'pp-' || :u::text || '-16', 'pp-' || :u::text || '-15', 'pp-' || :u::text || '-14', 'pp-' || :u::text || '-13', 'pp-' || :u::text || '-12', 'pp-' || :u::text || '-11', 'pp-' || :u::text || '-10', 'pp-' || :u::text || '-9', 'pp-' || :u::text || '-8', 'pp-' || :u::text || '-7', 'pp-' || :u::text || '-6', 'pp-' || :u::text || '-5', 'pp-' || :u::text || '-4', 'pp-' || :u::text || '-3', 'pp-' || :u::text || '-2', 'pp-' || :u::text || '-1'])
UNION ALL
SELECT 'answer', v.id, v.poll_id, v.option_id, v.answer_text, v.created_at, v.updated_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at FROM unnest(ARRAY['pp-' || :u::text || '-25', 'pp-' || :u::text || '-24', 'pp-' || :u::text || '-23', 'pp-' || :u::text || '-22', 'pp-' || :u::text || '-21', 'pp-' || :u::text || '-20', 'pp-' || :u::text || '-19', 'pp-' || :u::text || '-18', 'pp-' || :u::text || '-17', 'pp-' || :u::text || '-16', 'pp-' || :u::text || '-15', 'pp-' || :u::text || '-14', 'pp-' || :u::text || '-13', 'pp-' || :u::text || '-12', 'pp-' || :u::text || '-11', 'pp-' || :u::text || '-10', 'pp-' || :u::text || '-9', 'pp-' || :u::text || '-8', 'pp-' || :u::text || '-7', 'pp-' || :u::text || '-6', 'pp-' || :u::text || '-5', 'pp-' || :u::text || '-4', 'pp-' || :u::text || '-3', 'pp-' || :u::text || '-2', 'pp-' || :u::text || '-1']::text[]) AS p(id)
CROSS JOIN LATERAL (
    SELECT * FROM poll_votes v WHERE v.poll_id = p.id AND v.option_id IS NULL
    ORDER BY v.created_at DESC, v.id DESC LIMIT 10
) v JOIN users u ON u.id = v.user_id
UNION ALL
SELECT 'own', v.id, v.poll_id, v.option_id, v.answer_text, v.created_at, v.updated_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at FROM poll_votes v JOIN users u ON u.id = v.user_id
WHERE v.poll_id = ANY(ARRAY['pp-' || :u::text || '-25', 'pp-' || :u::text || '-24', 'pp-' || :u::text || '-23', 'pp-' || :u::text || '-22', 'pp-' || :u::text || '-21', 'pp-' || :u::text || '-20', 'pp-' || :u::text || '-19', 'pp-' || :u::text || '-18', 'pp-' || :u::text || '-17', 'pp-' || :u::text || '-16', 'pp-' || :u::text || '-15', 'pp-' || :u::text || '-14', 'pp-' || :u::text || '-13', 'pp-' || :u::text || '-12', 'pp-' || :u::text || '-11', 'pp-' || :u::text || '-10', 'pp-' || :u::text || '-9', 'pp-' || :u::text || '-8', 'pp-' || :u::text || '-7', 'pp-' || :u::text || '-6', 'pp-' || :u::text || '-5', 'pp-' || :u::text || '-4', 'pp-' || :u::text || '-3', 'pp-' || :u::text || '-2', 'pp-' || :u::text || '-1']) AND v.user_id = 'pollpage-' || :u::text AND true
ORDER BY 6 DESC, 2 DESC;
