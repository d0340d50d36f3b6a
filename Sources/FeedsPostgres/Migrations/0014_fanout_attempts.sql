-- A fan-out job runs in a transaction of its own. One that fails is tried again after a growing
-- wait (not_before), and after Fanout.maxAttempts tries it is set aside (failed_at, with its last
-- error), so that a job that can never succeed holds no other back. Set-aside jobs stay for an
-- operator to read; clearing failed_at tries them again.
ALTER TABLE fanout_jobs
    ADD COLUMN attempts integer NOT NULL DEFAULT 0,
    ADD COLUMN not_before timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN failed_at timestamptz,
    ADD COLUMN last_error text;
CREATE INDEX fanout_jobs_ready_idx ON fanout_jobs (id) WHERE failed_at IS NULL;
