-- Tasks, as GetTask shows them: the work behind a call that answers with a `task_id` (DeleteFeed,
-- DeleteFeedsBatch). The work runs in the call's own transaction and its task row is written in
-- the same one, so a task is seen only once it is done.
CREATE TABLE tasks (
    id          uuid PRIMARY KEY,
    kind        text NOT NULL,
    status      text NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
    result      jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tasks_created_idx ON tasks (created_at);
