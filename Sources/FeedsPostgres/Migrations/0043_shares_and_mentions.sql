-- Shares and mentions on activities. `parent_id` is the activity a share shares (no foreign key:
-- a parent may be hard-deleted and its shares stay, without it; under Citus the two are on
-- different shards). `share_count` counts the parent's live shares; the writes that add, move,
-- delete and restore a share keep it, in the share's own transaction. `mentioned_user_ids` are
-- the users the activity names, resolved to users by the reads.
ALTER TABLE activities
    ADD COLUMN parent_id text,
    ADD COLUMN share_count integer NOT NULL DEFAULT 0,
    ADD COLUMN mentioned_user_ids text[] NOT NULL DEFAULT '{}';
