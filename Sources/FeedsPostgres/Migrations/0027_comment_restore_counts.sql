-- RestoreComment: a soft-deleted comment that comes back (deleted_at back to NULL) counts again,
-- +1 on its activity and its parent, as its delete took one off.
CREATE OR REPLACE FUNCTION count_comment() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    change integer;
    c comments;
BEGIN
    -- +1 for a live comment arriving (or restored), -1 for one leaving (deleted, soft or hard).
    IF TG_OP = 'INSERT' THEN
        change := 1; c := NEW;
    ELSIF TG_OP = 'DELETE' THEN
        IF OLD.deleted_at IS NOT NULL THEN RETURN NULL; END IF;
        change := -1; c := OLD;
    ELSIF OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL THEN
        change := -1; c := NEW;
    ELSIF OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL THEN
        change := 1; c := NEW;
    ELSE
        RETURN NULL;
    END IF;
    UPDATE activities SET comment_count = comment_count + change WHERE id = c.activity_id;
    IF c.parent_id IS NOT NULL THEN
        UPDATE comments SET reply_count = reply_count + change WHERE id = c.parent_id;
    END IF;
    RETURN NULL;
END $$;
