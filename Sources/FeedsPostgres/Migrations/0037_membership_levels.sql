-- Membership levels (CreateMembershipLevel): tiers of a feed's audience, the app's. A member of a
-- feed who holds a level reads in full the feed's activities whose visibility_tag is one of the
-- level's tags (ActivityReadable); other readers of the feed get those activities as a preview.
CREATE TABLE membership_levels (
    id          text PRIMARY KEY,
    name        text NOT NULL,
    description text,
    priority    integer NOT NULL DEFAULT 0,
    tags        text[] NOT NULL DEFAULT '{}',
    custom      jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX membership_levels_page_idx ON membership_levels (created_at, id);

-- Deleting a level leaves its members without one; the index keeps that from reading every member.
ALTER TABLE feed_members ADD COLUMN membership_level text REFERENCES membership_levels (id) ON DELETE SET NULL;
CREATE INDEX feed_members_level_idx ON feed_members (membership_level) WHERE membership_level IS NOT NULL;
