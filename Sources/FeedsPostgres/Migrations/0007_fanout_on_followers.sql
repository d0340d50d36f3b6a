-- A post queues its fan-out only when a feed it is posted to has followers. The check runs in
-- the trigger that counts the post, after its UPDATE has locked the feed's row: a follow or an
-- accept changes follower_count under the same lock, so either the post sees the new count and
-- queues the job, or the follow waits for the post to commit and its backfill (run after the
-- follow commits) copies the post. Posting to a feed nobody follows writes no job at all.

CREATE OR REPLACE FUNCTION count_feed_activity() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    followers integer;
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE feeds SET activity_count = activity_count + 1 WHERE fid = NEW.feed
        RETURNING follower_count INTO followers;
        -- Private and tagged activities are for their readers only, and stay where they were posted.
        IF followers > 0 THEN
            INSERT INTO fanout_jobs (kind, activity_id, feeds)
            SELECT 'post', a.id, ARRAY[NEW.feed] FROM activities a
            WHERE a.id = NEW.activity_id AND a.visibility = 'public';
        END IF;
    ELSE
        UPDATE feeds SET activity_count = activity_count - 1 WHERE fid = OLD.feed;
    END IF;
    RETURN NULL;
END $$;
