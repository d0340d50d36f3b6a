-- The users whose watches of an event's feeds end once it is delivered (a member removed from a
-- feed they may no longer read): their own sockets still get the event that says so.
ALTER TABLE realtime_events ADD COLUMN then_revoke text[] NOT NULL DEFAULT '{}';
