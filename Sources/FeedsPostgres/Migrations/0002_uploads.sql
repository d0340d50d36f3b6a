-- Uploaded objects, their link to attachments, and idempotent retries.

-- One row per object in the CDN. Written (pending) before any byte is sent, so that nothing the
-- CDN holds is ever unknown here; gc deletes pending rows left by a crash, and standalone
-- uploads never attached after FEEDS_UNATTACHED_TTL.
CREATE TABLE cdn_objects (
    key          text PRIMARY KEY,
    kind         text NOT NULL CHECK (kind IN ('image', 'file')),
    owner_id     text,                  -- the uploading user; NULL for the server
    file_name    text NOT NULL,
    mime_type    text NOT NULL,
    size         bigint NOT NULL,
    sha256       text NOT NULL,
    width        integer,
    height       integer,
    state        text NOT NULL CHECK (state IN ('pending', 'uploaded', 'attached', 'deleted')),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cdn_objects_sweep_idx ON cdn_objects (state, updated_at) WHERE state IN ('pending', 'uploaded');

ALTER TABLE attachments ADD COLUMN object_key text REFERENCES cdn_objects (key);
CREATE INDEX attachments_object_idx ON attachments (object_key) WHERE object_key IS NOT NULL;

-- The first response to a request sent with an Idempotency-Key, replayed to retries for 24 h.
CREATE TABLE idempotency_keys (
    principal     text NOT NULL,
    key           text NOT NULL,
    request_hash  text NOT NULL,
    status        integer,              -- NULL while the first request is in flight
    response      bytea,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (principal, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
