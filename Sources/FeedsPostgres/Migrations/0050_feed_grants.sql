-- What the app grants members, followers and other users at each feed visibility level
-- (UpdateFeedVisibility): for each role and action, the visibilities where it is granted. A role
-- is Stream's (user, feed_follower, feed_member) or a member role (a feed member's `role`), which
-- adds changing the feed and answering its followers for the members who hold it. Every read and
-- write that checks access reads these rows (FeedReadable, FeedManaged), so a change holds at once
-- on every node. The rows below are docs/permissions.md's table (FeedGrantsStoreTests holds them to it).
CREATE TABLE feed_grants (
    role text NOT NULL CHECK (char_length(role) BETWEEN 1 AND 64),
    action text NOT NULL CHECK (action IN ('read', 'engage', 'post', 'follow', 'update', 'manageFollowers')),
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
    ('feed_member', 'follow', '{public,visible,followers}'),
    ('feed_member', 'update', '{}'),
    ('feed_member', 'manageFollowers', '{}');
