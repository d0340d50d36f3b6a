-- Activities that expire (stories): past expires_at they vanish from every read at once, and the
-- expiry service deletes them (and releases their files) soon after.
ALTER TABLE activities ADD COLUMN expires_at timestamptz;
CREATE INDEX activities_expires_idx ON activities (expires_at) WHERE expires_at IS NOT NULL;
