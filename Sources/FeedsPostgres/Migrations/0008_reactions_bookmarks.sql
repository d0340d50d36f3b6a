-- Reactions and bookmarks on activities. An activity keeps its reaction_count, reaction_groups
-- and bookmark_count on its own row, kept by triggers as reactions and bookmarks come and go:
-- each change updates the row under its lock, so the counts are exact however many users react
-- at once, and a feed page reads them as columns. comment_count is kept the same way by comments.

ALTER TABLE activities
    ADD COLUMN reaction_count integer NOT NULL DEFAULT 0,
    -- {type: {"count": n, "first": µs since 1970, "last": µs since 1970}}
    ADD COLUMN reaction_groups jsonb NOT NULL DEFAULT '{}',
    ADD COLUMN bookmark_count integer NOT NULL DEFAULT 0,
    ADD COLUMN comment_count integer NOT NULL DEFAULT 0;

-- One reaction per user, activity and type: the same reaction again is the one stored.
CREATE TABLE activity_reactions (
    activity_id  text NOT NULL REFERENCES activities (id) ON DELETE CASCADE,
    user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type         text NOT NULL,
    custom       jsonb NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (activity_id, user_id, type)
);
-- An activity's latest reactions, and QueryActivityReactions' pages, newest first.
CREATE INDEX activity_reactions_latest_idx ON activity_reactions (activity_id, created_at DESC, user_id DESC, type DESC);

CREATE FUNCTION count_activity_reaction() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    at bigint;
BEGIN
    IF TG_OP = 'INSERT' THEN
        at := (extract(epoch FROM NEW.created_at) * 1000000)::bigint;
        UPDATE activities SET
            reaction_count = reaction_count + 1,
            reaction_groups = reaction_groups || jsonb_build_object(NEW.type, jsonb_build_object(
                'count', COALESCE((reaction_groups -> NEW.type ->> 'count')::int, 0) + 1,
                'first', LEAST(COALESCE((reaction_groups -> NEW.type ->> 'first')::bigint, at), at),
                'last', GREATEST(COALESCE((reaction_groups -> NEW.type ->> 'last')::bigint, at), at)))
        WHERE id = NEW.activity_id;
    ELSE
        UPDATE activities SET
            reaction_count = reaction_count - 1,
            reaction_groups = CASE
                WHEN COALESCE((reaction_groups -> OLD.type ->> 'count')::int, 0) <= 1 THEN reaction_groups - OLD.type
                ELSE jsonb_set(reaction_groups, ARRAY[OLD.type, 'count'],
                    to_jsonb((reaction_groups -> OLD.type ->> 'count')::int - 1))
            END
        WHERE id = OLD.activity_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER activity_reactions_counted AFTER INSERT OR DELETE ON activity_reactions
    FOR EACH ROW EXECUTE FUNCTION count_activity_reaction();

CREATE TABLE bookmark_folders (
    id          text PRIMARY KEY,
    user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name        text NOT NULL,
    custom      jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, name)
);
CREATE INDEX bookmark_folders_user_idx ON bookmark_folders (user_id, created_at DESC, id DESC);

-- A user bookmarks an activity once per folder (and once without one); deleting a folder
-- deletes its bookmarks.
CREATE TABLE bookmarks (
    activity_id  text NOT NULL REFERENCES activities (id) ON DELETE CASCADE,
    user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    folder_id    text REFERENCES bookmark_folders (id) ON DELETE CASCADE,
    custom       jsonb NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX bookmarks_key ON bookmarks (activity_id, user_id, (COALESCE(folder_id, '')));
-- A user's bookmarks, newest first (QueryBookmarks).
CREATE INDEX bookmarks_user_idx ON bookmarks (user_id, created_at DESC, activity_id DESC);

CREATE FUNCTION count_bookmark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE activities SET bookmark_count = bookmark_count + 1 WHERE id = NEW.activity_id;
    ELSE
        UPDATE activities SET bookmark_count = bookmark_count - 1 WHERE id = OLD.activity_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER bookmarks_counted AFTER INSERT OR DELETE ON bookmarks
    FOR EACH ROW EXECUTE FUNCTION count_bookmark();
