-- GetFollowSuggestions (10 of the user group) for one of the eight readers, each following 1,000
-- feeds: the same SELECT as PostgresActivityStore.suggestionsSQL; BenchSQLTests fails when the
-- two drift apart.
\set u random(0, 7)
WITH mine AS MATERIALIZED (
    SELECT DISTINCT w.target_fid AS fid FROM feeds s JOIN follows w ON w.source_fid = s.fid WHERE s.created_by = 'tl-' || :u::text),
friends AS MATERIALIZED (
    SELECT DISTINCT t.created_by AS id FROM mine m JOIN feeds t ON t.fid = m.fid WHERE t.created_by <> 'tl-' || :u::text),
fof AS (
    SELECT w.target_fid AS fid, count(DISTINCT fs.created_by)::int AS mutuals
    FROM friends fr JOIN feeds fs ON fs.created_by = fr.id
    JOIN follows w ON w.source_fid = fs.fid AND w.status = 'accepted'
    GROUP BY w.target_fid),
picked AS (
    (SELECT f.fid, fof.mutuals FROM fof JOIN feeds f ON f.fid = fof.fid WHERE f.group_id = 'user' AND f.created_by <> 'tl-' || :u::text AND f.fid NOT IN (SELECT fid FROM mine)
  AND (f.created_by = 'tl-' || :u::text OR f.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'user' AND rg.action = 'read')::text[])
    OR (f.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_follower' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM follows rw JOIN feeds rs ON rs.fid = rw.source_fid
        WHERE rw.target_fid = f.fid AND rw.status = 'accepted' AND rs.created_by = 'tl-' || :u::text))
    OR (f.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_member' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM feed_members rm WHERE rm.fid = f.fid AND rm.user_id = 'tl-' || :u::text AND rm.status = 'member'))) AND NOT EXISTS (SELECT 1 FROM user_blocks ub WHERE (ub.user_id = 'tl-' || :u::text AND ub.blocked_user_id = f.created_by)
    OR (ub.user_id = f.created_by AND ub.blocked_user_id = 'tl-' || :u::text))
     ORDER BY fof.mutuals DESC, f.follower_count DESC, f.fid LIMIT 10)
    UNION ALL
    (SELECT f.fid, 0 FROM feeds f WHERE f.group_id = 'user' AND f.created_by <> 'tl-' || :u::text AND f.fid NOT IN (SELECT fid FROM mine)
  AND (f.created_by = 'tl-' || :u::text OR f.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'user' AND rg.action = 'read')::text[])
    OR (f.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_follower' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM follows rw JOIN feeds rs ON rs.fid = rw.source_fid
        WHERE rw.target_fid = f.fid AND rw.status = 'accepted' AND rs.created_by = 'tl-' || :u::text))
    OR (f.visibility = ANY((SELECT rg.visibilities FROM feed_grants rg WHERE rg.role = 'feed_member' AND rg.action = 'read')::text[]) AND EXISTS (
        SELECT 1 FROM feed_members rm WHERE rm.fid = f.fid AND rm.user_id = 'tl-' || :u::text AND rm.status = 'member'))) AND NOT EXISTS (SELECT 1 FROM user_blocks ub WHERE (ub.user_id = 'tl-' || :u::text AND ub.blocked_user_id = f.created_by)
    OR (ub.user_id = f.created_by AND ub.blocked_user_id = 'tl-' || :u::text))
     ORDER BY f.follower_count DESC, f.created_at DESC, f.fid LIMIT 10))
SELECT f.group_id, f.feed_id, f.name, f.description, f.custom::text, f.created_at, f.updated_at,
f.activity_count::int8, f.visibility, f.follower_count, f.following_count, f.member_count, f.pin_count,
u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at, p.mutuals
FROM (SELECT DISTINCT ON (fid) fid, mutuals FROM picked ORDER BY fid, mutuals DESC) p
JOIN feeds f ON f.fid = p.fid JOIN users u ON u.id = f.created_by
ORDER BY p.mutuals DESC, f.follower_count DESC, f.created_at DESC, f.fid LIMIT 10;
