-- Reactions to comments, kept as an activity's are: one per user, comment and type, with the
-- comment's reaction_count and reaction_groups on its row, kept by a trigger under its lock.

ALTER TABLE comments ADD COLUMN reaction_groups jsonb NOT NULL DEFAULT '{}';

CREATE TABLE comment_reactions (
    comment_id  text NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type        text NOT NULL,
    custom      jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (comment_id, user_id, type)
);
CREATE INDEX comment_reactions_latest_idx ON comment_reactions (comment_id, created_at DESC, user_id DESC, type DESC);

-- The group of `type` in `groups` with one reaction at `at` more (`change` 1) or less (-1): the
-- arithmetic both reaction triggers share.
CREATE FUNCTION reaction_groups_changed(groups jsonb, type text, at timestamptz, change integer)
RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN change > 0 THEN groups || jsonb_build_object(type, jsonb_build_object(
            'count', COALESCE((groups -> type ->> 'count')::int, 0) + 1,
            'first', LEAST(COALESCE((groups -> type ->> 'first')::bigint, m), m),
            'last', GREATEST(COALESCE((groups -> type ->> 'last')::bigint, m), m)))
        WHEN COALESCE((groups -> type ->> 'count')::int, 0) <= 1 THEN groups - type
        ELSE jsonb_set(groups, ARRAY[type, 'count'], to_jsonb((groups -> type ->> 'count')::int - 1))
    END
    FROM (SELECT (extract(epoch FROM at) * 1000000)::bigint AS m) x
$$;

CREATE FUNCTION count_comment_reaction() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE comments SET reaction_count = reaction_count + 1,
            reaction_groups = reaction_groups_changed(reaction_groups, NEW.type, NEW.created_at, 1)
        WHERE id = NEW.comment_id;
    ELSE
        UPDATE comments SET reaction_count = reaction_count - 1,
            reaction_groups = reaction_groups_changed(reaction_groups, OLD.type, OLD.created_at, -1)
        WHERE id = OLD.comment_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER comment_reactions_counted AFTER INSERT OR DELETE ON comment_reactions
    FOR EACH ROW EXECUTE FUNCTION count_comment_reaction();

-- The activities' trigger, on the same arithmetic.
CREATE OR REPLACE FUNCTION count_activity_reaction() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE activities SET reaction_count = reaction_count + 1,
            reaction_groups = reaction_groups_changed(reaction_groups, NEW.type, NEW.created_at, 1)
        WHERE id = NEW.activity_id;
    ELSE
        UPDATE activities SET reaction_count = reaction_count - 1,
            reaction_groups = reaction_groups_changed(reaction_groups, OLD.type, OLD.created_at, -1)
        WHERE id = OLD.activity_id;
    END IF;
    RETURN NULL;
END $$;
