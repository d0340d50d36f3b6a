-- Bookmarks of comments (AddCommentBookmark). A bookmark row may name a comment; its activity_id
-- is then the comment's activity, so that the activity's deletes reach it as they reach the
-- activity's own bookmarks. A user bookmarks a comment once per folder, as an activity.
-- An activity's bookmark_count counts the people who bookmarked the activity itself; a comment
-- keeps its own count, of the people who bookmarked it.
ALTER TABLE bookmarks ADD COLUMN comment_id text REFERENCES comments (id) ON DELETE CASCADE;
ALTER TABLE comments ADD COLUMN bookmark_count integer NOT NULL DEFAULT 0;
DROP INDEX bookmarks_key;
CREATE UNIQUE INDEX bookmarks_key ON bookmarks (activity_id, user_id, (COALESCE(comment_id, '')), (COALESCE(folder_id, '')));
-- A comment's bookmarks, for its hard delete's cascade.
CREATE INDEX bookmarks_comment_idx ON bookmarks (comment_id) WHERE comment_id IS NOT NULL;

-- As 0015's, for the activity or the comment the bookmark is of: the counted row is locked
-- before the trigger looks, so that two bookmarks of one user committing at once count once.
CREATE OR REPLACE FUNCTION count_bookmark() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    target text := COALESCE(NEW.activity_id, OLD.activity_id);
    of_comment text := COALESCE(NEW.comment_id, OLD.comment_id);
    who text := COALESCE(NEW.user_id, OLD.user_id);
    kept integer;
BEGIN
    IF of_comment IS NULL THEN
        PERFORM 1 FROM activities WHERE id = target FOR NO KEY UPDATE;
        SELECT count(*) INTO kept FROM bookmarks WHERE activity_id = target AND user_id = who AND comment_id IS NULL;
        IF TG_OP = 'INSERT' AND kept = 1 THEN
            UPDATE activities SET bookmark_count = bookmark_count + 1 WHERE id = target;
        ELSIF TG_OP = 'DELETE' AND kept = 0 THEN
            UPDATE activities SET bookmark_count = bookmark_count - 1 WHERE id = target;
        END IF;
    ELSE
        PERFORM 1 FROM comments WHERE id = of_comment FOR NO KEY UPDATE;
        SELECT count(*) INTO kept FROM bookmarks WHERE activity_id = target AND user_id = who AND comment_id = of_comment;
        IF TG_OP = 'INSERT' AND kept = 1 THEN
            UPDATE comments SET bookmark_count = bookmark_count + 1 WHERE id = of_comment;
        ELSIF TG_OP = 'DELETE' AND kept = 0 THEN
            UPDATE comments SET bookmark_count = bookmark_count - 1 WHERE id = of_comment;
        END IF;
    END IF;
    RETURN NULL;
END $$;
