-- Whom a tagged activity is for (TagReadable), as a function: the reaction and comment statements
-- are planned for their values on every run, and the two subqueries inline would be planned each
-- time, though they run only for a tagged activity. PL/pgSQL is never inlined: its plan is made
-- once a session, and only when it is called.
CREATE FUNCTION tag_readable(feeds text[], tag text, reader text) RETURNS boolean
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
    RETURN EXISTS (
        SELECT 1 FROM feed_members tm JOIN membership_levels tl ON tl.id = tm.membership_level
        WHERE tm.fid = ANY(feeds) AND tm.user_id = reader AND tm.status = 'member' AND tag = ANY(tl.tags)
    ) OR EXISTS (SELECT 1 FROM feeds tf WHERE tf.fid = ANY(tag_readable.feeds) AND tf.created_by = reader);
END $$;
