-- What the app grants members, followers and other users at each feed visibility level
-- (UpdateFeedVisibility): for each role and action, the visibilities where it is granted. Every
-- read and write that checks access reads its rows (FeedGrantSQL), so a change holds at once on
-- every node. The rows below are docs/permissions.md's table (FeedGrantsTests holds them to it).
CREATE TABLE feed_grants (
    role text NOT NULL CHECK (role IN ('user', 'feed_follower', 'feed_member')),
    action text NOT NULL CHECK (action IN ('read', 'engage', 'post', 'follow')),
    visibilities text[] NOT NULL,
    PRIMARY KEY (role, action)
);

INSERT INTO feed_grants (role, action, visibilities) VALUES
    ('user', 'read', '{public,visible}'),
    ('user', 'engage', '{public,visible}'),
    ('user', 'post', '{}'),
    ('user', 'follow', '{public,visible,followers}'),
    ('feed_follower', 'read', '{public,visible,followers}'),
    ('feed_follower', 'engage', '{public,visible,followers}'),
    ('feed_follower', 'post', '{}'),
    ('feed_follower', 'follow', '{public,visible,followers}'),
    ('feed_member', 'read', '{public,visible,members}'),
    ('feed_member', 'engage', '{public,visible,members}'),
    ('feed_member', 'post', '{}'),
    ('feed_member', 'follow', '{public,visible,followers}');
