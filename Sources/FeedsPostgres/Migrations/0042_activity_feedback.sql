-- A reader's feedback on an activity (ActivityFeedback): `hidden` takes it off the feed pages that
-- reader reads (reads by id and QueryActivities say `hidden`); `preference` records show_more (1)
-- and show_less (-1) for rankings to come. One row per reader and activity; it goes with either.
CREATE TABLE activity_feedback (
    activity_id  text NOT NULL REFERENCES activities (id) ON DELETE CASCADE,
    user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    hidden       boolean NOT NULL DEFAULT false,
    preference   smallint NOT NULL DEFAULT 0 CHECK (preference BETWEEN -1 AND 1),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (activity_id, user_id)
);
-- A user's feedback, for their deletion's cascade.
CREATE INDEX activity_feedback_user_idx ON activity_feedback (user_id);
