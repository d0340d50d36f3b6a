-- DeleteUsers and DeleteFeedUserData: work that runs after its call, as a task that workers claim
-- and run in steps, each step its own transaction; a task shows its progress in `result` as it
-- goes, and one whose worker died is taken over once its hold runs out.
ALTER TABLE tasks ADD COLUMN input jsonb NOT NULL DEFAULT '{}',
    ADD COLUMN error jsonb,
    ADD COLUMN attempts integer NOT NULL DEFAULT 0,
    ADD COLUMN held_by text,
    ADD COLUMN held_until timestamptz;
CREATE INDEX tasks_waiting_idx ON tasks (created_at) WHERE status IN ('pending', 'running');

-- A deleted account (DeleteUsers `user`: soft or pruning): refused as a deactivated one is, until
-- RestoreUsers; a hard delete removes the row at the end of its task.
ALTER TABLE users ADD COLUMN deleted_at timestamptz;
CREATE INDEX users_deleted_idx ON users (id) WHERE deleted_at IS NOT NULL;

-- A person's rows found by who they are, for their erasure and their export: the tables whose
-- other indexes lead with the object.
CREATE INDEX activity_reactions_user_idx ON activity_reactions (user_id);
CREATE INDEX comment_reactions_user_idx ON comment_reactions (user_id);
CREATE INDEX notifications_user_idx ON notifications (user_id);
CREATE INDEX activity_pins_user_idx ON activity_pins (user_id);
