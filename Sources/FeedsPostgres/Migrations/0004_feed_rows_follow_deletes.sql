-- A soft-deleted activity leaves its feeds (activity_feeds) as a hard-deleted one does, so that a
-- feed's activity count is an index-only count of its rows instead of a join over every activity
-- it ever held. This clears the rows that soft deletes left before.
DELETE FROM activity_feeds af USING activities a WHERE a.id = af.activity_id AND a.deleted_at IS NOT NULL;
