-- make bench: the follow graph and activities the timeline measures read, built in SQL as the
-- server would have (fan-out copies included). 10,000 authors `tl-N` post 1,000,000 activities,
-- the low-numbered ones far more (an author is floor(10000 * random()^3)). Follows follow a power
-- law: most users follow a handful of feeds, a few follow hundreds; the eight readers tl-0..7
-- follow exactly 1,000 authors each, and `tl-star` has 100,000 followers (fans tlfan-N).
SELECT setseed(0.21);
-- Bulk rows without the activity_count triggers (a million updates of a few hot feed rows);
-- the counts are set at the end in one statement.
SET session_replication_role = replica;

INSERT INTO users (id) SELECT 'tl-' || n FROM generate_series(0, 9999) n;
INSERT INTO users (id) VALUES ('tl-star'), ('tl-quiet');
INSERT INTO feeds (fid, group_id, feed_id, created_by)
SELECT 'user:' || id, 'user', id, id FROM users WHERE id LIKE 'tl-%';
INSERT INTO feeds (fid, group_id, feed_id, created_by, visibility)
SELECT 'timeline:' || id, 'timeline', id, id, 'private' FROM users WHERE id LIKE 'tl-%';

INSERT INTO activities (id, type, user_id, text, feeds, created_at, updated_at)
SELECT 'tla-' || i, 'post', 'tl-' || a, 'timeline bench', ARRAY['user:tl-' || a], t, t
FROM (SELECT i, floor(10000 * random() ^ 3)::int AS a, now() - i * interval '1 second' AS t
      FROM generate_series(1, 1000000) i) x;
INSERT INTO activity_feeds (feed, created_at, activity_id)
SELECT feeds[1], created_at, id FROM activities WHERE id LIKE 'tla-%';

-- Readers: 1,000 distinct authors each. Everyone else: floor(1 / random()) feeds, at most 500,
-- chosen as popular authors are (the same cube).
INSERT INTO follows (source_fid, target_fid, status)
SELECT DISTINCT 'timeline:tl-' || r, 'user:tl-' || a, 'accepted'
FROM generate_series(0, 7) r, LATERAL (
    SELECT a FROM generate_series(0, 9999) a ORDER BY random() + r * 0 LIMIT 1000) picked;
INSERT INTO follows (source_fid, target_fid, status)
SELECT DISTINCT 'timeline:tl-' || u, 'user:tl-' || floor(10000 * random() ^ 3 + k * 0)::int, 'accepted'
FROM generate_series(8, 9999) u, LATERAL generate_series(1, least(500, floor(1 / greatest(random() + u * 0, 0.002))::int)) k
ON CONFLICT DO NOTHING;
DELETE FROM follows WHERE source_fid = 'timeline:' || substr(target_fid, 6);

-- The readers' timelines as fan-out made them: every activity of every author they follow.
INSERT INTO activity_feeds (feed, created_at, activity_id, via)
SELECT w.source_fid, af.created_at, af.activity_id, w.target_fid
FROM follows w JOIN activity_feeds af ON af.feed = w.target_fid AND af.via IS NULL
WHERE w.source_fid IN (SELECT 'timeline:tl-' || r FROM generate_series(0, 7) r);

-- The star's 100,000 fans.
INSERT INTO users (id) SELECT 'tlfan-' || n FROM generate_series(1, 100000) n;
INSERT INTO feeds (fid, group_id, feed_id, created_by, visibility)
SELECT 'timeline:tlfan-' || n, 'timeline', 'tlfan-' || n, 'tlfan-' || n, 'private' FROM generate_series(1, 100000) n;
INSERT INTO follows (source_fid, target_fid, status)
SELECT 'timeline:tlfan-' || n, 'user:tl-star', 'accepted' FROM generate_series(1, 100000) n;

SET session_replication_role = DEFAULT;
UPDATE feeds f SET activity_count = c.n
FROM (SELECT feed, count(*) n FROM activity_feeds WHERE via IS NULL GROUP BY 1) c WHERE f.fid = c.feed;
UPDATE feeds f SET follower_count = c.n FROM (SELECT target_fid, count(*) n FROM follows GROUP BY 1) c WHERE f.fid = c.target_fid;
UPDATE feeds f SET following_count = c.n FROM (SELECT source_fid, count(*) n FROM follows GROUP BY 1) c WHERE f.fid = c.source_fid;
VACUUM ANALYZE;
