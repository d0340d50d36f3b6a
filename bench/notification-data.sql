-- make bench: four notification feeds, notification:bell-0…3, of 100,000 notifications each (1,000
-- groups of 100: a hundred people liking one post a day), and notification:bell-small of 10, in the
-- rows PostgresNotificationStore writes. Run after the server created the schema.
INSERT INTO users (id)
SELECT 'bell-' || b FROM generate_series(0, 3) b
UNION ALL SELECT 'bell-small'
UNION ALL SELECT 'fan-' || f FROM generate_series(0, 99) f
ON CONFLICT (id) DO NOTHING;

INSERT INTO notification_groups (feed, grp, activity_count, user_count, created_at, updated_at)
SELECT 'notification:bell-' || b, 'post-' || g || '_reaction_2026-01-01', 100, 100,
    now() - g * interval '1 minute' - interval '100 seconds', now() - g * interval '1 minute'
FROM generate_series(0, 3) b, generate_series(0, 999) g;

INSERT INTO notifications (id, feed, grp, source, type, user_id, context, created_at)
SELECT 'n-' || b || '-' || g || '-' || f, 'notification:bell-' || b, 'post-' || g || '_reaction_2026-01-01',
    'reaction:post-' || g || ':fan-' || f || ':like', 'reaction', 'fan-' || f,
    jsonb_build_object('target', jsonb_build_object('id', 'post-' || g, 'type', 'post', 'text', 'a walk'),
        'trigger', jsonb_build_object('type', 'reaction', 'text', 'fan-' || f || ' reacted to your activity')),
    now() - g * interval '1 minute' - f * interval '1 second'
FROM generate_series(0, 3) b, generate_series(0, 999) g, generate_series(0, 99) f;

INSERT INTO notification_groups (feed, grp, activity_count, user_count, created_at, updated_at)
VALUES ('notification:bell-small', 'post-0_reaction_2026-01-01', 10, 10, now() - interval '10 seconds', now());
INSERT INTO notifications (id, feed, grp, source, type, user_id, context, created_at)
SELECT 'n-small-' || f, 'notification:bell-small', 'post-0_reaction_2026-01-01', 'reaction:post-0:fan-' || f || ':like',
    'reaction', 'fan-' || f, '{"target": {"id": "post-0", "type": "post"}, "trigger": {"type": "reaction"}}',
    now() - f * interval '1 second'
FROM generate_series(0, 9) f;

ANALYZE users;
ANALYZE notification_groups;
ANALYZE notifications;
