-- Stories a user watched (MarkActivity's mark_watched), for `is_watched` on the story groups that
-- track watching. A row goes with its activity (stories expire and are deleted) or its user.
CREATE TABLE watched_activities (
    user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    activity_id  text NOT NULL REFERENCES activities (id) ON DELETE CASCADE,
    watched_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, activity_id)
);
CREATE INDEX watched_activities_activity_idx ON watched_activities (activity_id);

-- Stream's built-in story groups track watching; `stories`, the timeline of the stories a user
-- follows, is aggregated per author. Neither skips what was watched.
UPDATE feed_groups SET config = config || '{"stories": {"track_watched": true, "skip_watched": false}}'
WHERE id IN ('story', 'stories');
UPDATE feed_groups SET config = config || '{"aggregation": {"format": "{{ user_id }}"}}' WHERE id = 'stories';
