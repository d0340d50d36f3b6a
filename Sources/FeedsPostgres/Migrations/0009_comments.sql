-- Comments on activities, threaded: a reply names its parent, and carries its depth. An
-- activity's comment_count and a comment's reply_count are kept by a trigger under the counted
-- row's lock, as reactions are; a deleted comment (soft: deleted_at) leaves both counts.

CREATE TABLE comments (
    id                  text PRIMARY KEY,
    activity_id         text NOT NULL REFERENCES activities (id) ON DELETE CASCADE,
    parent_id           text REFERENCES comments (id) ON DELETE CASCADE,
    user_id             text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- 0 for a comment on the activity, the parent's + 1 for a reply.
    depth               integer NOT NULL DEFAULT 0,
    text                text,
    custom              jsonb NOT NULL DEFAULT '{}',
    mentioned_user_ids  text[] NOT NULL DEFAULT '{}',
    reply_count         integer NOT NULL DEFAULT 0,
    reaction_count      integer NOT NULL DEFAULT 0,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    edited_at           timestamptz,
    deleted_at          timestamptz
);
-- An activity's comments and a comment's replies, in time order either way (GetComments,
-- GetCommentReplies), live ones only.
CREATE INDEX comments_top_idx ON comments (activity_id, created_at, id) WHERE parent_id IS NULL AND deleted_at IS NULL;
CREATE INDEX comments_replies_idx ON comments (parent_id, created_at, id) WHERE deleted_at IS NULL;
-- QueryComments by author.
CREATE INDEX comments_user_idx ON comments (user_id, created_at DESC, id DESC);

-- A comment's attachments, as an activity's: an object is released for gc when neither holds it.
CREATE TABLE comment_attachments (
    comment_id  text NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    position    integer NOT NULL,
    type        text,
    payload     jsonb NOT NULL,
    object_key  text REFERENCES cdn_objects (key),
    PRIMARY KEY (comment_id, position)
);
CREATE INDEX comment_attachments_object_idx ON comment_attachments (object_key) WHERE object_key IS NOT NULL;

CREATE FUNCTION count_comment() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    change integer;
    c comments;
BEGIN
    -- +1 for a live comment arriving, -1 for one leaving (deleted, soft or hard).
    IF TG_OP = 'INSERT' THEN
        change := 1; c := NEW;
    ELSIF TG_OP = 'DELETE' THEN
        IF OLD.deleted_at IS NOT NULL THEN RETURN NULL; END IF;
        change := -1; c := OLD;
    ELSIF OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL THEN
        change := -1; c := NEW;
    ELSE
        RETURN NULL;
    END IF;
    UPDATE activities SET comment_count = comment_count + change WHERE id = c.activity_id;
    IF c.parent_id IS NOT NULL THEN
        UPDATE comments SET reply_count = reply_count + change WHERE id = c.parent_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER comments_counted AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON comments
    FOR EACH ROW EXECUTE FUNCTION count_comment();
