-- Pinned activities (PinActivity): a feed's owner pins activities of the feed to its top. A pin
-- goes with its activity (a soft delete takes it too, in DeleteActivities) or its feed;
-- feeds.pin_count counts them, kept by the trigger below.
CREATE TABLE activity_pins (
    fid          text NOT NULL REFERENCES feeds (fid) ON DELETE CASCADE,
    activity_id  text NOT NULL REFERENCES activities (id) ON DELETE CASCADE,
    user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,   -- who pinned it
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (fid, activity_id)
);
CREATE INDEX activity_pins_page_idx ON activity_pins (fid, created_at DESC, activity_id DESC);
CREATE INDEX activity_pins_activity_idx ON activity_pins (activity_id);

ALTER TABLE feeds ADD COLUMN pin_count integer NOT NULL DEFAULT 0;

CREATE FUNCTION activity_pins_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE feeds SET pin_count = pin_count + CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END
    WHERE fid = CASE WHEN TG_OP = 'INSERT' THEN NEW.fid ELSE OLD.fid END;
    RETURN NULL;
END $$;

CREATE TRIGGER activity_pins_count AFTER INSERT OR DELETE ON activity_pins
    FOR EACH ROW EXECUTE FUNCTION activity_pins_count();
