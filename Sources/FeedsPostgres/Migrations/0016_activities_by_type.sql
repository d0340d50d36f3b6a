-- QueryActivities by type walks this newest first (one type, or each of several merged), instead
-- of every activity when the type is rare.
CREATE INDEX activities_type_idx ON activities (type, created_at DESC, id DESC);
