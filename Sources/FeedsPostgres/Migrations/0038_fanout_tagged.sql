-- Tagged activities (visibility tag) go to their followers' timelines as public ones do: each
-- reader gets them there as on the feed they were posted to, in full or as a preview
-- (ActivityReadable). Private ones still stay where they were posted.
CREATE OR REPLACE FUNCTION count_feed_activity() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    followers integer;
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE feeds SET activity_count = activity_count + 1 WHERE fid = NEW.feed
        RETURNING follower_count INTO followers;
        IF followers > 0 THEN
            INSERT INTO fanout_jobs (kind, activity_id, feeds)
            SELECT 'post', a.id, ARRAY[NEW.feed] FROM activities a
            WHERE a.id = NEW.activity_id AND a.visibility IN ('public', 'tag');
        END IF;
    ELSE
        UPDATE feeds SET activity_count = activity_count - 1 WHERE fid = OLD.feed;
    END IF;
    RETURN NULL;
END $$;
