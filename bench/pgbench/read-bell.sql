-- The best single SQL for a notification feed's page: the newest 25 groups of one of
-- notification:bell-0…3 (bench/notification-data.sql), each with its newest 10 notifications and
-- their users, as the page shows them. The server runs three statements for the page: its groups,
-- their notifications, and the feed's status, which this leaves out.
\set b random(0, 3)
SELECT g.grp, g.activity_count, g.user_count, g.created_at, g.updated_at, n.id, n.type, n.context::text, n.custom::text,
    n.created_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at
FROM (SELECT * FROM notification_groups WHERE feed = E'notification\x3abell-' || :b::text
      ORDER BY updated_at DESC, grp DESC LIMIT 25) g
CROSS JOIN LATERAL (
    SELECT * FROM notifications n WHERE n.feed = g.feed AND n.grp = g.grp ORDER BY n.created_at DESC, n.id DESC LIMIT 10
) n
JOIN users u ON u.id = n.user_id
ORDER BY g.updated_at DESC, g.grp DESC, n.created_at DESC, n.id DESC;
