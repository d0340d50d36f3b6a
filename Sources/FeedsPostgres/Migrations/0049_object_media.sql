-- What ffprobe measured of an uploaded video or audio file ({"duration": seconds, "codec": name}),
-- so that an attachment linking it by URL later says the same as one uploaded with its activity.
ALTER TABLE cdn_objects ADD COLUMN media jsonb;
