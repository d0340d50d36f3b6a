-- A user's own feeds, for the `own_follows` and `own_followings` of the feeds they read: the
-- follows from their feeds are found through these, never by walking a feed's followers.
CREATE INDEX feeds_created_by_idx ON feeds (created_by);
