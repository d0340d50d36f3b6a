-- What AddActivity writes for a JSON activity to one feed: the activity row and its feed row in one
-- transaction, the same statement as PostgresActivityStore.addActivity, with its check that the poster
-- owns the feed (users loadtest-0…99 exist); the trigger that counts the post queues its fan-out
-- when the feed has followers, as it does for the server.
-- (pgbench would take the colon of 'user:' for a variable, hence E'user\x3a…'.)
\set u random(0, 99)
BEGIN;
WITH a AS (
    INSERT INTO activities (id, type, user_id, text, feeds, visibility, visibility_tag, restrict_replies, custom, expires_at)
    SELECT gen_random_uuid()::text, 'loadtest', 'loadtest-' || :u::text, 'pgbench', ARRAY[E'user\x3aloadtest-' || :u::text],
           'public', NULL, 'everyone', '{"seq":0}'::jsonb, NULL
    WHERE NOT EXISTS (SELECT 1 FROM feeds WHERE fid = E'user\x3aloadtest-' || :u::text AND created_by <> 'loadtest-' || :u::text)
    RETURNING id, created_at
)
INSERT INTO activity_feeds (feed, created_at, activity_id)
SELECT f, a.created_at, a.id FROM a, unnest(ARRAY[E'user\x3aloadtest-' || :u::text]::text[]) AS f;
END;
