-- The admin console (/admin): its sessions, the audit list of settings changes, and gc runs.

-- Server-side sessions, so that every node accepts one and sign-out ends it everywhere at once.
-- The cookie's token is never stored, only its SHA-256: a read of this table signs no one in.
-- Times come from the server's clock (the tests move it), not from now().
CREATE TABLE admin_sessions (
    token_hash      text PRIMARY KEY,
    csrf_token      text NOT NULL,
    credential      text NOT NULL CHECK (credential IN ('api secret', 'server token')),
    created_at      timestamptz NOT NULL,
    seen_at         timestamptz NOT NULL,
    expires_at      timestamptz NOT NULL
);
CREATE INDEX admin_sessions_expires_idx ON admin_sessions (expires_at);

-- Who changed the app settings, when, and what: written by the change's own transaction.
CREATE TABLE app_settings_audit (
    version     bigint PRIMARY KEY,
    changed_at  timestamptz NOT NULL DEFAULT now(),
    actor       text NOT NULL,
    changes     text[] NOT NULL
);

-- Every sweep that ran (and the console's that did not), with what it removed.
CREATE TABLE gc_runs (
    id                bigserial PRIMARY KEY,
    trigger           text NOT NULL CHECK (trigger IN ('schedule', 'console', 'cli')),
    started_at        timestamptz NOT NULL,
    finished_at       timestamptz NOT NULL,
    ran               boolean NOT NULL,
    objects           integer NOT NULL,
    failed            integer NOT NULL,
    temp_files        integer NOT NULL,
    idempotency_keys  integer NOT NULL,
    orphans           integer NOT NULL,
    error             text
);

-- The console lists uploads newest first, of everyone or of one user.
CREATE INDEX cdn_objects_recent_idx ON cdn_objects (created_at DESC, key DESC);
CREATE INDEX cdn_objects_owner_recent_idx ON cdn_objects (owner_id, created_at DESC, key DESC);
