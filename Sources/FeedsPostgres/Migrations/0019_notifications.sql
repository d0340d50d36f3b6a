-- Notification feeds (`notification:<user>`): what others did to a user's activities, comments
-- and feeds, aggregated into groups at write time, as Stream does. A notification is kept once
-- per source (a user's like of one post, one follow, one comment): liking again after an unlike
-- updates it rather than adding another. Its group's counts are kept on the group's row, so a
-- page of groups reads no more than its groups and their newest few notifications.
CREATE TABLE notification_groups (
    feed            text NOT NULL,               -- notification:<user>
    grp             text NOT NULL,               -- the aggregation format's result
    activity_count  integer NOT NULL DEFAULT 0,
    user_count      integer NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    read_at         timestamptz,                 -- marked read by id (mark_read); the watermark covers the rest
    seen_at         timestamptz,
    PRIMARY KEY (feed, grp)
);
CREATE INDEX notification_groups_recent_idx ON notification_groups (feed, updated_at DESC, grp DESC);

CREATE TABLE notifications (
    id          text PRIMARY KEY,
    feed        text NOT NULL,
    grp         text NOT NULL,
    source      text NOT NULL,                   -- what made it: reaction:<activity>:<user>:<type>, follow:<src>:<tgt>, ...
    type        text NOT NULL,                   -- reaction, comment, comment_reply, comment_reaction, follow
    user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    activity_id text,                            -- the activity it is about: deleting that takes it
    context     jsonb NOT NULL,                  -- notification_context: target and trigger
    custom      jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL,
    FOREIGN KEY (feed, grp) REFERENCES notification_groups (feed, grp) ON DELETE CASCADE,
    UNIQUE (feed, source)
);
CREATE INDEX notifications_group_idx ON notifications (feed, grp, created_at DESC, id DESC);
CREATE INDEX notifications_group_user_idx ON notifications (feed, grp, user_id);
-- Taking a notification back with what made it (an unlike, an unfollow) finds it by its source.
CREATE INDEX notifications_source_idx ON notifications (source);
CREATE INDEX notifications_activity_idx ON notifications (activity_id) WHERE activity_id IS NOT NULL;

-- A feed's watermarks: everything updated before last_read_at is read, before last_seen_at seen.
-- Marking all is one row's update however many notifications there are.
CREATE TABLE notification_status (
    feed          text PRIMARY KEY,
    last_read_at  timestamptz,
    last_seen_at  timestamptz
);
