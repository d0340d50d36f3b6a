-- CastPollVote as the server runs it (Polls.vote, PostgresPollStore.castVote): 64 voters
-- (voter-0…63) vote for one of the four options ("1"…"4") of one poll that allows a vote a
-- voter (bench-poll, on the activity poll-bench-activity). The activity is read (with its poll),
-- then, with the poll's row locked, the voter's row, the option, the voter's vote; a first vote is
-- written and counted, a vote for another option moves and both options' counts change, a vote
-- for the same option changes nothing; then the poll is read again for the reply. pgbench takes
-- the same branch the server would, from the voter's vote (\aset; a missing row leaves
-- option_id 0). The one difference: the server moves the vote it read by its id, which \aset
-- cannot keep (the voter's id has the same column name), so pgbench finds it again by its voter.
-- BenchSQLTests holds every statement to the server's SQL, word for word.
\set u random(0, 63)
\set o random(1, 4)
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
    WHERE r.activity_id = a.id AND r.user_id = 'voter-' || :u::text
)::text END,
CASE WHEN a.bookmark_count > 0 THEN (
    SELECT json_agg(json_build_array(b.custom, (extract(epoch FROM b.created_at) * 1000000)::int8, (extract(epoch FROM b.updated_at) * 1000000)::int8, json_build_array(bu.id, bu.name, bu.image, bu.role, bu.language, bu.teams, bu.custom, (extract(epoch FROM bu.created_at) * 1000000)::int8, (extract(epoch FROM bu.updated_at) * 1000000)::int8),
        bf.id, bf.name, bf.custom, (extract(epoch FROM bf.created_at) * 1000000)::int8, (extract(epoch FROM bf.updated_at) * 1000000)::int8)
        ORDER BY b.created_at DESC, bf.id DESC)
    FROM bookmarks b JOIN users bu ON bu.id = b.user_id LEFT JOIN bookmark_folders bf ON bf.id = b.folder_id
    WHERE b.activity_id = a.id AND b.user_id = 'voter-' || :u::text AND b.comment_id IS NULL
)::text END,
NULL::text,
(a.visibility = 'tag' AND a.user_id <> 'voter-' || :u::text AND NOT tag_readable(a.feeds, a.visibility_tag, 'voter-' || :u::text)),
EXISTS (SELECT 1 FROM activity_feedback af WHERE af.activity_id = a.id AND af.user_id = 'voter-' || :u::text AND af.hidden),
(extract(epoch FROM a.created_at) * 1000000)::bigint FROM activities a JOIN users u ON u.id = a.user_id WHERE true AND a.deleted_at IS NULL AND (a.expires_at IS NULL OR a.expires_at > now()) AND a.id = 'poll-bench-activity' AND (a.user_id = 'voter-' || :u::text OR (a.visibility IN ('public', 'tag') AND EXISTS (
    SELECT 1 FROM feeds rf WHERE rf.fid = ANY(a.feeds) AND (rf.created_by = 'voter-' || :u::text OR rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'user' AND rg.action = 'read')::text[])
    OR (rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_follower' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM follows rw JOIN feeds rs ON rs.fid = rw.source_fid
        WHERE rw.target_fid = rf.fid AND rw.status = 'accepted' AND rs.created_by = 'voter-' || :u::text))
    OR (rf.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_member' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM feed_members rm WHERE rm.fid = rf.fid AND rm.user_id = 'voter-' || :u::text AND rm.status = 'member'))))
    AND NOT EXISTS (SELECT 1 FROM user_blocks ub WHERE (ub.user_id = 'voter-' || :u::text AND ub.blocked_user_id = a.user_id)
    OR (ub.user_id = a.user_id AND ub.blocked_user_id = 'voter-' || :u::text)))) ORDER BY a.created_at DESC, a.id DESC LIMIT 2;
SELECT p.id, p.name, p.description, p.voting_visibility, p.enforce_unique_vote, p.max_votes_allowed,
    p.allow_user_suggested_options, p.allow_answers, p.is_closed, p.custom::text, p.vote_count, p.answers_count,
    p.created_at, p.updated_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at
FROM polls p JOIN users u ON u.id = p.created_by WHERE p.id = ANY(ARRAY['bench-poll']);
SELECT poll_id, id, text, custom::text, vote_count FROM poll_options WHERE poll_id = ANY(ARRAY['bench-poll']) ORDER BY poll_id, position;
SELECT 'latest', v.id, v.poll_id, v.option_id, v.answer_text, v.created_at, v.updated_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at FROM poll_options o
CROSS JOIN LATERAL (
    SELECT * FROM poll_votes v WHERE v.poll_id = o.poll_id AND v.option_id = o.id
    ORDER BY v.created_at DESC, v.id DESC LIMIT 10
) v JOIN users u ON u.id = v.user_id
WHERE o.poll_id = ANY(ARRAY['bench-poll'])
UNION ALL
SELECT 'answer', v.id, v.poll_id, v.option_id, v.answer_text, v.created_at, v.updated_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at FROM unnest(ARRAY['bench-poll']::text[]) AS p(id)
CROSS JOIN LATERAL (
    SELECT * FROM poll_votes v WHERE v.poll_id = p.id AND v.option_id IS NULL
    ORDER BY v.created_at DESC, v.id DESC LIMIT 10
) v JOIN users u ON u.id = v.user_id
UNION ALL
SELECT 'own', v.id, v.poll_id, v.option_id, v.answer_text, v.created_at, v.updated_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at FROM poll_votes v JOIN users u ON u.id = v.user_id
WHERE v.poll_id = ANY(ARRAY['bench-poll']) AND v.user_id = 'voter-' || :u::text AND true
ORDER BY 6 DESC, 2 DESC;
BEGIN;
SELECT name, description, voting_visibility, enforce_unique_vote, max_votes_allowed, allow_user_suggested_options,
    allow_answers, is_closed, custom::text, created_by
FROM polls WHERE id = 'bench-poll' FOR UPDATE;
INSERT INTO users (id) VALUES ('voter-' || :u::text) ON CONFLICT (id) DO NOTHING;
SELECT 1 FROM poll_options WHERE poll_id = 'bench-poll' AND id = :o::text;
\set option_id 0
SELECT v.id, v.poll_id, v.option_id, v.answer_text, v.created_at, v.updated_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at FROM poll_votes v JOIN users u ON u.id = v.user_id
WHERE v.poll_id = 'bench-poll' AND v.user_id = 'voter-' || :u::text AND v.option_id IS NOT NULL ORDER BY v.created_at, v.id
\aset
\if :option_id = 0
WITH v AS (
    INSERT INTO poll_votes (poll_id, id, user_id, option_id) VALUES ('bench-poll', gen_random_uuid()::text, 'voter-' || :u::text, :o::text)
    RETURNING *
)
SELECT v.id, v.poll_id, v.option_id, v.answer_text, v.created_at, v.updated_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at FROM v JOIN users u ON u.id = v.user_id;
WITH o AS (UPDATE poll_options SET vote_count = vote_count + 1 WHERE poll_id = 'bench-poll' AND id = :o::text)
UPDATE polls SET vote_count = vote_count + 1 WHERE id = 'bench-poll';
\elif :option_id != :o
WITH v AS (
    UPDATE poll_votes SET option_id = :o::text, updated_at = now()
    WHERE poll_id = 'bench-poll' AND id = (SELECT id FROM poll_votes WHERE poll_id = 'bench-poll' AND user_id = 'voter-' || :u::text AND option_id IS NOT NULL) RETURNING *
)
SELECT v.id, v.poll_id, v.option_id, v.answer_text, v.created_at, v.updated_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at FROM v JOIN users u ON u.id = v.user_id;
WITH o AS (UPDATE poll_options SET vote_count = vote_count + -1 WHERE poll_id = 'bench-poll' AND id = :option_id::text)
UPDATE polls SET vote_count = vote_count + -1 WHERE id = 'bench-poll';
WITH o AS (UPDATE poll_options SET vote_count = vote_count + 1 WHERE poll_id = 'bench-poll' AND id = :o::text)
UPDATE polls SET vote_count = vote_count + 1 WHERE id = 'bench-poll';
\endif
COMMIT;
SELECT p.id, p.name, p.description, p.voting_visibility, p.enforce_unique_vote, p.max_votes_allowed,
    p.allow_user_suggested_options, p.allow_answers, p.is_closed, p.custom::text, p.vote_count, p.answers_count,
    p.created_at, p.updated_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at
FROM polls p JOIN users u ON u.id = p.created_by WHERE p.id = ANY(ARRAY['bench-poll']);
SELECT poll_id, id, text, custom::text, vote_count FROM poll_options WHERE poll_id = ANY(ARRAY['bench-poll']) ORDER BY poll_id, position;
SELECT 'latest', v.id, v.poll_id, v.option_id, v.answer_text, v.created_at, v.updated_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at FROM poll_options o
CROSS JOIN LATERAL (
    SELECT * FROM poll_votes v WHERE v.poll_id = o.poll_id AND v.option_id = o.id
    ORDER BY v.created_at DESC, v.id DESC LIMIT 10
) v JOIN users u ON u.id = v.user_id
WHERE o.poll_id = ANY(ARRAY['bench-poll'])
UNION ALL
SELECT 'answer', v.id, v.poll_id, v.option_id, v.answer_text, v.created_at, v.updated_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at FROM unnest(ARRAY['bench-poll']::text[]) AS p(id)
CROSS JOIN LATERAL (
    SELECT * FROM poll_votes v WHERE v.poll_id = p.id AND v.option_id IS NULL
    ORDER BY v.created_at DESC, v.id DESC LIMIT 10
) v JOIN users u ON u.id = v.user_id
UNION ALL
SELECT 'own', v.id, v.poll_id, v.option_id, v.answer_text, v.created_at, v.updated_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at FROM poll_votes v JOIN users u ON u.id = v.user_id
WHERE v.poll_id = ANY(ARRAY['bench-poll']) AND v.user_id = 'voter-' || :u::text AND true
ORDER BY 6 DESC, 2 DESC;
