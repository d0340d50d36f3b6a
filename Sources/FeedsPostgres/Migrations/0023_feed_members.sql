-- Feed members (UpdateFeedMembers): who belongs to a feed, with a role. An invite is pending until
-- the invited user accepts (member) or rejects it. A `members` feed is read by its owner and its
-- members (FeedReadable); feeds.member_count counts members, kept by the trigger below.
CREATE TABLE feed_members (
    fid                 text NOT NULL REFERENCES feeds (fid) ON DELETE CASCADE,
    user_id             text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role                text NOT NULL DEFAULT 'feed_member',
    status              text NOT NULL CHECK (status IN ('member', 'pending', 'rejected')),
    custom              jsonb NOT NULL DEFAULT '{}',
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    invite_accepted_at  timestamptz,
    invite_rejected_at  timestamptz,
    PRIMARY KEY (fid, user_id)
);
-- A user's memberships, for reads that ask "is this user a member" from the user's side.
CREATE INDEX feed_members_user_idx ON feed_members (user_id, fid);
CREATE INDEX feed_members_page_idx ON feed_members (fid, created_at, user_id);

ALTER TABLE feeds ADD COLUMN member_count integer NOT NULL DEFAULT 0;

CREATE FUNCTION feed_members_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    delta integer := 0;
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'member' THEN delta := delta + 1; END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.status = 'member' THEN delta := delta - 1; END IF;
    IF delta <> 0 THEN
        UPDATE feeds SET member_count = member_count + delta
        WHERE fid = CASE WHEN TG_OP = 'DELETE' THEN OLD.fid ELSE NEW.fid END;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER feed_members_count AFTER INSERT OR UPDATE OF status OR DELETE ON feed_members
    FOR EACH ROW EXECUTE FUNCTION feed_members_count();
