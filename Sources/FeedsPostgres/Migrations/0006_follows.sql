-- Follows and timelines. A timeline is a feed whose rows in activity_feeds were copied there
-- from the feeds it follows (fan-out on write): reading it is the same one range scan as
-- reading any feed, and deleting an activity removes its copies with it.

ALTER TABLE feeds
    ADD COLUMN visibility text NOT NULL DEFAULT 'visible'
        CHECK (visibility IN ('public', 'visible', 'followers', 'members', 'private')),
    -- Accepted follows only; kept by the statements that accept and remove them.
    ADD COLUMN follower_count integer NOT NULL DEFAULT 0,
    ADD COLUMN following_count integer NOT NULL DEFAULT 0;

-- NULL: posted to the feed; otherwise the followed feed this copy came from.
ALTER TABLE activity_feeds ADD COLUMN via text;
CREATE INDEX activity_feeds_via_idx ON activity_feeds (feed, via) WHERE via IS NOT NULL;

CREATE TABLE follows (
    source_fid           text NOT NULL REFERENCES feeds (fid) ON DELETE CASCADE,
    target_fid           text NOT NULL REFERENCES feeds (fid) ON DELETE CASCADE,
    status               text NOT NULL CHECK (status IN ('accepted', 'pending', 'rejected')),
    push_preference      text NOT NULL DEFAULT 'none' CHECK (push_preference IN ('all', 'none')),
    follower_role        text NOT NULL DEFAULT 'feed_follower',
    custom               jsonb NOT NULL DEFAULT '{}',
    -- How many of the target's activities to copy when the follow is accepted.
    copy_limit           integer NOT NULL DEFAULT 1000,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now(),
    request_accepted_at  timestamptz,
    request_rejected_at  timestamptz,
    PRIMARY KEY (source_fid, target_fid),
    CHECK (source_fid <> target_fid)
);
-- Fan-out reads a feed's accepted followers in order, a chunk at a time.
CREATE INDEX follows_target_idx ON follows (target_fid, status, source_fid);
-- A feed's followers and following, newest first (GetOrCreateFeed's lists, QueryFollows by one
-- feed), and QueryFollows across feeds.
CREATE INDEX follows_target_created_idx ON follows (target_fid, created_at DESC, source_fid DESC);
CREATE INDEX follows_source_created_idx ON follows (source_fid, created_at DESC, target_fid DESC);
CREATE INDEX follows_created_idx ON follows (created_at DESC, source_fid, target_fid);

-- Work that copies activities into timelines, done after the write that made it commits:
-- 'post' copies one activity to the followers of its feeds, a chunk of followers at a time
-- (`after` is the last follower done); 'backfill' copies a followed feed's recent activities
-- into one follower. Claimed with FOR UPDATE SKIP LOCKED by any node; a job whose node died
-- is claimed again, and copies are idempotent (the primary key of activity_feeds).
CREATE TABLE fanout_jobs (
    id           bigserial PRIMARY KEY,
    kind         text NOT NULL CHECK (kind IN ('post', 'backfill')),
    activity_id  text,
    feeds        text[] NOT NULL DEFAULT '{}',
    source_fid   text,
    copy_limit   integer,
    after        text NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- A feed's activity_count, kept as posts arrive and leave (soft and hard deletes both remove
-- the feed row): counting a feed's rows on every read cost a timeline of 100,000 copies, and each
-- followed feed listed with it, milliseconds apiece. Copies in timelines are not counted.
ALTER TABLE feeds ADD COLUMN activity_count integer NOT NULL DEFAULT 0;
UPDATE feeds f SET activity_count = c.n
FROM (SELECT feed, count(*) AS n FROM activity_feeds WHERE via IS NULL GROUP BY feed) c WHERE f.fid = c.feed;

CREATE FUNCTION count_feed_activity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE feeds SET activity_count = activity_count + 1 WHERE fid = NEW.feed;
    ELSE
        UPDATE feeds SET activity_count = activity_count - 1 WHERE fid = OLD.feed;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER activity_feeds_counted_in AFTER INSERT ON activity_feeds
    FOR EACH ROW WHEN (NEW.via IS NULL) EXECUTE FUNCTION count_feed_activity();
CREATE TRIGGER activity_feeds_counted_out AFTER DELETE ON activity_feeds
    FOR EACH ROW WHEN (OLD.via IS NULL) EXECUTE FUNCTION count_feed_activity();
