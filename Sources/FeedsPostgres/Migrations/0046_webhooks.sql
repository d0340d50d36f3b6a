-- Webhooks: the app's backend hears of every event its sockets do (UpdateApp webhook_url,
-- webhook_events, event_hooks).
ALTER TABLE app_settings
    ADD COLUMN webhook_url text NOT NULL DEFAULT '',
    ADD COLUMN webhook_events text[] NOT NULL DEFAULT '{}',
    ADD COLUMN event_hooks jsonb NOT NULL DEFAULT '[]';

-- The outbox: a row per event and hook, written by the node that published the event, deleted
-- once the receiver answered 2xx. Rows of one lane are delivered in id order by one node at a
-- time; an event's lane is its hook and a hash of its first feed, so a feed's events arrive in
-- order. `webhook_id` is chosen by the publisher, so an insert tried again after a lost answer
-- cannot write an event twice. `give_up_at` ends the retries (a day after the event); `failed_at` marks a row given up
-- on or refused, kept for the admin console to show and retry.
CREATE TABLE webhook_outbox (
    id            bigserial PRIMARY KEY,
    lane          text NOT NULL,
    hook_id       text NOT NULL,
    webhook_id    uuid NOT NULL UNIQUE,
    event_type    text NOT NULL,
    body          text NOT NULL,
    attempts      integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    give_up_at    timestamptz NOT NULL,
    failed_at     timestamptz,
    last_error    text,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_outbox_lane_idx ON webhook_outbox (lane, id) WHERE failed_at IS NULL;
CREATE INDEX webhook_outbox_failed_idx ON webhook_outbox (failed_at) WHERE failed_at IS NOT NULL;

-- Who delivers a lane now: a node holds it until `held_until`, renewing while it works, so a
-- lane is delivered by one node at a time and a dead node's lanes pass on.
CREATE TABLE webhook_lanes (
    lane        text PRIMARY KEY,
    held_by     text,
    held_until  timestamptz
);
