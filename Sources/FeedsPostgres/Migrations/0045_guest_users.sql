-- CreateGuest mints a user and its token for anyone holding the (public) API key: off until an
-- admin turns it on (UpdateApp guest_user_creation_disabled: false).
ALTER TABLE app_settings ADD COLUMN guest_user_creation_disabled boolean NOT NULL DEFAULT true;
