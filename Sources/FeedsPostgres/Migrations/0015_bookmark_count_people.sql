-- bookmark_count counts the people who bookmarked an activity, not their folders: one user's 50
-- folders made it 50. The trigger locks the activity's row before it looks, so that two bookmarks
-- of one user committing at once are counted once (the second looks after the first committed).
CREATE OR REPLACE FUNCTION count_bookmark() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    target text := COALESCE(NEW.activity_id, OLD.activity_id);
    who text := COALESCE(NEW.user_id, OLD.user_id);
    kept integer;
BEGIN
    PERFORM 1 FROM activities WHERE id = target FOR NO KEY UPDATE;
    SELECT count(*) INTO kept FROM bookmarks WHERE activity_id = target AND user_id = who;
    IF TG_OP = 'INSERT' AND kept = 1 THEN
        UPDATE activities SET bookmark_count = bookmark_count + 1 WHERE id = target;
    ELSIF TG_OP = 'DELETE' AND kept = 0 THEN
        UPDATE activities SET bookmark_count = bookmark_count - 1 WHERE id = target;
    END IF;
    RETURN NULL;
END $$;
UPDATE activities a SET bookmark_count = (SELECT count(DISTINCT b.user_id) FROM bookmarks b WHERE b.activity_id = a.id)
WHERE a.bookmark_count > 0;
