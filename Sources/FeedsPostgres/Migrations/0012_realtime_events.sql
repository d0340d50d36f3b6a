-- Real-time events on their way to every node. The node that made a write inserts its events
-- after the write committed and notifies `feeds_events` with their ids; every node reads each
-- batch once and hands it to its WebSocket watchers. Rows live minutes (a node that missed
-- events tells its clients to re-sync), so the table is unlogged: a crash that loses them loses
-- the sockets too.
CREATE UNLOGGED TABLE realtime_events (
    id          bigserial PRIMARY KEY,
    fids        text[] NOT NULL,
    only_for    text,
    payload     text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX realtime_events_created_idx ON realtime_events (created_at);
