-- make bench: the feeds whose pages of polls are read, built in SQL as the server would have.
-- Readers pollpage-0…15 each have 30 activities in their own feed, the newest 25 each carrying a
-- poll of their own (pp-<reader>-1…25; four options, a vote a voter). Each poll has 12 votes from
-- the voters voter-0…63 (spread over its options), and every second one the reader's own.
INSERT INTO users (id) SELECT 'voter-' || n FROM generate_series(0, 63) n ON CONFLICT DO NOTHING;
INSERT INTO users (id) SELECT 'pollpage-' || n FROM generate_series(0, 15) n;
INSERT INTO feeds (fid, group_id, feed_id, created_by)
SELECT 'user:pollpage-' || n, 'user', 'pollpage-' || n, 'pollpage-' || n FROM generate_series(0, 15) n;

INSERT INTO polls (id, name, enforce_unique_vote, option_count, created_by, created_at, updated_at)
SELECT 'pp-' || r || '-' || k, 'Poll ' || k || ' of pollpage-' || r, true, 4, 'pollpage-' || r,
    now() - (30 - k) * interval '1 minute', now() - (30 - k) * interval '1 minute'
FROM generate_series(0, 15) r, generate_series(1, 25) k;
INSERT INTO poll_options (poll_id, id, text, position)
SELECT p.id, o::text, 'Option ' || o, o - 1 FROM polls p, generate_series(1, 4) o WHERE p.id LIKE 'pp-%';
-- Voter j of poll k: voter-((k + 5j) mod 64), for option 1 + (k + j) mod 4; the reader on odd k.
INSERT INTO poll_votes (poll_id, id, user_id, option_id, created_at, updated_at)
SELECT 'pp-' || r || '-' || k, 'ppv-' || r || '-' || k || '-' || j, 'voter-' || (k + 5 * j) % 64, (1 + (k + j) % 4)::text,
    now() - (30 - k) * interval '1 minute' + j * interval '1 second', now() - (30 - k) * interval '1 minute' + j * interval '1 second'
FROM generate_series(0, 15) r, generate_series(1, 25) k, generate_series(0, 11) j;
INSERT INTO poll_votes (poll_id, id, user_id, option_id)
SELECT 'pp-' || r || '-' || k, 'ppv-' || r || '-' || k || '-own', 'pollpage-' || r, (1 + k % 4)::text
FROM generate_series(0, 15) r, generate_series(1, 25, 2) k;
UPDATE poll_options o SET vote_count = c.n
FROM (SELECT poll_id, option_id, count(*) n FROM poll_votes WHERE poll_id LIKE 'pp-%' GROUP BY 1, 2) c
WHERE o.poll_id = c.poll_id AND o.id = c.option_id;
UPDATE polls p SET vote_count = c.n
FROM (SELECT poll_id, count(*) n FROM poll_votes WHERE poll_id LIKE 'pp-%' GROUP BY 1) c WHERE p.id = c.poll_id;

-- Activity k of reader r: the newest 25 (k = 6…30) carry poll pp-r-(k - 5).
INSERT INTO activities (id, type, user_id, text, feeds, created_at, updated_at, poll_id)
SELECT 'ppa-' || r || '-' || k, 'post', 'pollpage-' || r, 'poll page bench ' || k, ARRAY['user:pollpage-' || r],
    now() - (30 - k) * interval '1 minute', now() - (30 - k) * interval '1 minute',
    CASE WHEN k > 5 THEN 'pp-' || r || '-' || (k - 5) END
FROM generate_series(0, 15) r, generate_series(1, 30) k;
INSERT INTO activity_feeds (feed, created_at, activity_id)
SELECT feeds[1], created_at, id FROM activities WHERE id LIKE 'ppa-%';
VACUUM ANALYZE;
