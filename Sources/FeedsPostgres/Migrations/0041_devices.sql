-- A user's devices for push (CreateDevice). A device is its push token (`id`): one user holds it
-- at a time, so a phone signed in to another account moves to that account. A user keeps at most
-- 25; registering a 26th lets the oldest go (the store's statement).
CREATE TABLE devices (
    id                  text PRIMARY KEY,
    user_id             text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    push_provider       text NOT NULL CHECK (push_provider IN ('firebase', 'apn', 'huawei', 'xiaomi')),
    push_provider_name  text NOT NULL DEFAULT '',
    hardware_id         text NOT NULL DEFAULT '',
    voip                boolean NOT NULL DEFAULT false,
    disabled            boolean NOT NULL DEFAULT false,
    disabled_reason     text NOT NULL DEFAULT '',
    created_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX devices_user_idx ON devices (user_id, created_at DESC, id DESC);
