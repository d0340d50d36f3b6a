-- The settings an admin changes at run time (GET/PATCH /api/v2/app): one row per app, versioned.
-- Every change bumps the version and is announced with NOTIFY feeds_app_settings, so that all
-- nodes reload it; this server serves one app, id 1.
CREATE TABLE app_settings (
    app_id                  integer PRIMARY KEY,
    version                 bigint NOT NULL,
    file_upload_config      jsonb NOT NULL,
    image_upload_config     jsonb NOT NULL,
    cdn_expiration_seconds  integer NOT NULL CHECK (cdn_expiration_seconds BETWEEN 14400 AND 1209600),
    updated_at              timestamptz NOT NULL DEFAULT now()
);

INSERT INTO app_settings (app_id, version, file_upload_config, image_upload_config, cdn_expiration_seconds)
VALUES (
    1, 1,
    '{"allowed_file_extensions": [], "blocked_file_extensions": [], "allowed_mime_types": [], "blocked_mime_types": [], "size_limit": 0}',
    '{"allowed_file_extensions": [], "blocked_file_extensions": [], "allowed_mime_types": [], "blocked_mime_types": [], "size_limit": 0}',
    1209600
);
