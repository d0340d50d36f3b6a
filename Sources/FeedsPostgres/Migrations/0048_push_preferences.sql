-- UpdatePushNotificationPreferences: a user's Feeds push settings. No push is sent from here: a
-- notification that would be pushed goes to the app's webhooks (`feeds.push_notification`) with
-- the devices it is for, unless these settings turn it off.
CREATE TABLE push_preferences (
    user_id           text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    feeds_level       text NOT NULL DEFAULT 'all' CHECK (feeds_level IN ('all', 'none')),
    feeds_preferences jsonb NOT NULL DEFAULT '{}',
    disabled_until    timestamptz,
    updated_at        timestamptz NOT NULL DEFAULT now()
);
