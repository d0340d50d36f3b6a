-- An object's life as one state machine: reserved → stored → attached ⇄ released → deleting →
-- deleted. 'released' is an object no attachment holds any more (its activity was hard-deleted or
-- its attachment replaced), swept like an unattached upload; 'deleting' is claimed for deletion,
-- kept until the store confirms the bytes gone, so a failed delete is retried, never forgotten.
ALTER TABLE cdn_objects DROP CONSTRAINT cdn_objects_state_check;
UPDATE cdn_objects SET state = CASE state WHEN 'pending' THEN 'reserved' WHEN 'uploaded' THEN 'stored' ELSE state END;
ALTER TABLE cdn_objects ADD CONSTRAINT cdn_objects_state_check
    CHECK (state IN ('reserved', 'stored', 'attached', 'released', 'deleting', 'deleted'));
ALTER TABLE cdn_objects ADD COLUMN delete_attempts integer NOT NULL DEFAULT 0;

DROP INDEX cdn_objects_sweep_idx;
CREATE INDEX cdn_objects_sweep_idx ON cdn_objects (state, updated_at)
    WHERE state IN ('reserved', 'stored', 'released', 'deleting');

-- Objects left 'attached' by activities deleted or edited before this migration.
UPDATE cdn_objects o SET state = 'released', updated_at = now()
WHERE o.state = 'attached' AND NOT EXISTS (SELECT 1 FROM attachments t WHERE t.object_key = o.key);

-- An idempotent request's reply is recorded by the transaction of the write it protects, and a
-- claim whose request died is taken over once its lease is over.
ALTER TABLE idempotency_keys ADD COLUMN lease_until timestamptz NOT NULL DEFAULT now() + interval '1 minute';

-- One node sweeps at a time, by a lease in a row rather than a session lock: a session lock held
-- a pooled connection for the whole sweep while the sweep's own statements needed others, which
-- starved a small pool. A node that dies mid-sweep loses the lease when it runs out.
CREATE TABLE sweep_lease (
    id      integer PRIMARY KEY CHECK (id = 1),
    holder  text,
    until   timestamptz NOT NULL DEFAULT '-infinity'
);
INSERT INTO sweep_lease (id) VALUES (1);
