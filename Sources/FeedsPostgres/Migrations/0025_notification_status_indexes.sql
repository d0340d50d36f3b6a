-- A notification feed's status, read with every page and every notification: its counts walk
-- the groups updated since the last mark, now from the index alone (read_at and seen_at ride in
-- it), and the groups marked by id since then come from indexes of the marked groups only,
-- rather than from every group since the mark.
DROP INDEX notification_groups_recent_idx;
CREATE INDEX notification_groups_recent_idx ON notification_groups (feed, updated_at DESC, grp DESC) INCLUDE (read_at, seen_at);
CREATE INDEX notification_groups_read_idx ON notification_groups (feed, updated_at DESC) WHERE read_at IS NOT NULL;
CREATE INDEX notification_groups_seen_idx ON notification_groups (feed, updated_at DESC) WHERE seen_at IS NOT NULL;
