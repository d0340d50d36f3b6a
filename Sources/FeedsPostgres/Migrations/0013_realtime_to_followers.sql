-- Events of public activities reach the feeds that follow the feeds they name too (a timeline's
-- watchers see its followed feeds' posts, reactions and comments). Each node resolves which of
-- its own watched feeds those are when it reads the event.
ALTER TABLE realtime_events ADD COLUMN to_followers boolean NOT NULL DEFAULT false;
