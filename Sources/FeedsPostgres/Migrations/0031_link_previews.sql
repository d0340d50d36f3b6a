-- GetOG's cache: the preview of each URL asked for, kept a day (`LinkPreviews`).
CREATE TABLE link_previews (
    url text PRIMARY KEY,
    preview jsonb NOT NULL,
    fetched_at timestamptz NOT NULL DEFAULT now()
);
