-- The users whose write or content an event carries: a node reading the event leaves out the
-- sockets of users who blocked them or whom they blocked (`user_blocks`), as reads do.
ALTER TABLE realtime_events ADD COLUMN actors text[] NOT NULL DEFAULT '{}';
