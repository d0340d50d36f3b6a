-- A notification feed's page of 25 groups, read by its owner: the server's two statements for it,
-- word for word (PostgresNotificationStore.pageSQL and statusSQL; BenchSQLTests fails when they
-- drift apart): the groups with their newest 10 notifications and their users, and the feed's
-- status. Run on notification:bell-0…3 of bench/notification-data.sql.
\set b random(0, 3)
SELECT g.grp, n.id, n.type, n.context::text, n.custom::text, n.created_at, u.id, u.name, u.image, u.role, u.language, u.teams, u.custom::text, u.created_at, u.updated_at,
    g.activity_count, g.user_count, g.created_at, g.updated_at, (extract(epoch FROM g.updated_at) * 1000000)::int8,
    g.updated_at <= COALESCE(s.last_read_at, '-infinity') OR COALESCE(g.read_at >= g.updated_at, false),
    g.updated_at <= COALESCE(s.last_seen_at, '-infinity') OR COALESCE(g.seen_at >= g.updated_at, false)
FROM (
    SELECT *, row_number() OVER (ORDER BY updated_at DESC, grp DESC) AS position FROM notification_groups
    WHERE feed = E'notification\x3abell-' || :b::text AND (true OR (updated_at, grp) < (timestamptz 'epoch' + 0 * interval '1 microsecond', ''))
    ORDER BY updated_at DESC, grp DESC LIMIT 25 + 1
) g
LEFT JOIN notification_status s ON s.feed = g.feed
CROSS JOIN LATERAL (
    SELECT * FROM notifications n WHERE n.feed = g.feed AND n.grp = g.grp
    ORDER BY n.created_at DESC, n.id DESC LIMIT CASE WHEN g.position <= 25 THEN 10 ELSE 1 END
) n
JOIN users u ON u.id = n.user_id
ORDER BY g.updated_at DESC, g.grp DESC, n.created_at DESC, n.id DESC;
WITH marks AS (SELECT (SELECT last_read_at FROM notification_status WHERE feed = E'notification\x3abell-' || :b::text) AS read_mark,
       (SELECT last_seen_at FROM notification_status WHERE feed = E'notification\x3abell-' || :b::text) AS seen_mark)
SELECT (SELECT count(*)::int FROM notification_groups g WHERE g.feed = E'notification\x3abell-' || :b::text
    AND g.updated_at > COALESCE(marks.read_mark, '-infinity') AND (g.read_at IS NULL OR g.read_at < g.updated_at)),
(SELECT count(*)::int FROM notification_groups g WHERE g.feed = E'notification\x3abell-' || :b::text
    AND g.updated_at > COALESCE(marks.seen_mark, '-infinity') AND (g.seen_at IS NULL OR g.seen_at < g.updated_at)),
marks.read_mark, marks.seen_mark,
ARRAY(SELECT g.grp FROM notification_groups g WHERE g.feed = E'notification\x3abell-' || :b::text AND g.read_at IS NOT NULL
    AND g.updated_at > COALESCE(marks.read_mark, '-infinity') AND g.read_at >= g.updated_at
    ORDER BY g.updated_at DESC LIMIT 101),
ARRAY(SELECT g.grp FROM notification_groups g WHERE g.feed = E'notification\x3abell-' || :b::text AND g.seen_at IS NOT NULL
    AND g.updated_at > COALESCE(marks.seen_mark, '-infinity') AND g.seen_at >= g.updated_at
    ORDER BY g.updated_at DESC LIMIT 101) FROM marks;
