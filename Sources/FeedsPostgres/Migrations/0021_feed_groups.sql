-- Feed groups as rows (GET/POST/PUT/DELETE /api/v2/feeds/feed_groups): the six built-ins with
-- Stream's defaults, and any an app creates (`hashtag`, `my-story`). A new feed takes its
-- group's default visibility from here, in the same statement that creates it. A change bumps
-- the app settings' version and is announced on their channel, so every node reloads its copy.
CREATE TABLE feed_groups (
    id                  text PRIMARY KEY,
    default_visibility  text NOT NULL CHECK (default_visibility IN ('public', 'visible', 'followers', 'members', 'private')),
    config              jsonb NOT NULL DEFAULT '{}',   -- aggregation, notification, stories, activity_selectors, push_notification
    custom              jsonb NOT NULL DEFAULT '{}',
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    deleted_at          timestamptz                    -- soft-deleted: kept, restorable, refused for use
);

INSERT INTO feed_groups (id, default_visibility, config) VALUES
    ('user', 'visible', '{}'),
    ('timeline', 'private', '{"activity_selectors": [{"type": "following"}]}'),
    ('foryou', 'private', '{"activity_selectors": [{"type": "following"}]}'),
    ('notification', 'private',
     '{"aggregation": {"format": "{{ target_id }}_{{ type }}_{{ time.strftime(\"%Y-%m-%d\") }}"},
       "notification": {"track_seen": true, "track_read": true}}'),
    ('story', 'visible', '{}'),
    ('stories', 'private', '{"activity_selectors": [{"type": "following"}]}');

