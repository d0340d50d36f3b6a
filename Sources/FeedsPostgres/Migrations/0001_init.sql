-- Users, activities and the feeds they are posted to.

CREATE TABLE users (
    id          text PRIMARY KEY,
    name        text,
    image       text,
    role        text NOT NULL DEFAULT 'user',
    language    text NOT NULL DEFAULT '',
    teams       text[] NOT NULL DEFAULT '{}',
    custom      jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE feeds (
    fid          text PRIMARY KEY,          -- group:id
    group_id     text NOT NULL,
    feed_id      text NOT NULL,
    name         text NOT NULL DEFAULT '',
    description  text NOT NULL DEFAULT '',
    custom       jsonb NOT NULL DEFAULT '{}',
    created_by   text NOT NULL REFERENCES users (id),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE activities (
    id                text PRIMARY KEY,
    type              text NOT NULL,
    user_id           text NOT NULL REFERENCES users (id),
    text              text,
    feeds             text[] NOT NULL,      -- as posted, for responses; activity_feeds is the index
    visibility        text NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'private', 'tag')),
    visibility_tag    text,
    restrict_replies  text NOT NULL DEFAULT 'everyone',
    custom            jsonb NOT NULL DEFAULT '{}',
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    edited_at         timestamptz,
    deleted_at        timestamptz
);

-- Newest-first reads across feeds (QueryActivities without a single feed).
CREATE INDEX activities_created_idx ON activities (created_at DESC, id DESC);
CREATE INDEX activities_user_idx ON activities (user_id, created_at DESC, id DESC);

-- The feed-read index: every feed page is one range scan on (feed, created_at, activity_id).
CREATE TABLE activity_feeds (
    feed         text NOT NULL,
    created_at   timestamptz NOT NULL,
    activity_id  text NOT NULL REFERENCES activities (id) ON DELETE CASCADE,
    PRIMARY KEY (feed, created_at, activity_id)
);
CREATE INDEX activity_feeds_activity_idx ON activity_feeds (activity_id);

-- Attachments in order; payload is the wire Attachment object.
CREATE TABLE attachments (
    activity_id  text NOT NULL REFERENCES activities (id) ON DELETE CASCADE,
    position     integer NOT NULL,
    type         text,
    payload      jsonb NOT NULL,
    PRIMARY KEY (activity_id, position)
);
