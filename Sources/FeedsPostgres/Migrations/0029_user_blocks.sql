-- BlockUsers: who has blocked whom. Reads look a pair up both ways (`Unblocked`), by the primary
-- key one way and by this index the other.
CREATE TABLE user_blocks (
    user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    blocked_user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, blocked_user_id),
    CHECK (user_id <> blocked_user_id)
);
CREATE INDEX user_blocks_blocked_idx ON user_blocks (blocked_user_id, user_id);
