-- DeactivateUser: a deactivated user's tokens are refused and their sockets closed until they are
-- reactivated; what they posted stays. Few are: each node keeps their ids in memory.
ALTER TABLE users ADD COLUMN deactivated_at timestamptz;
CREATE INDEX users_deactivated_idx ON users (id) WHERE deactivated_at IS NOT NULL;
