-- GetFollowSuggestions' popular side walks a group's feeds most followed first, and stops at its
-- limit. (A follow already rewrites the feed's row for its count; posts change activity_count,
-- which no index names, so they stay HOT updates.)
CREATE INDEX feeds_group_followers_idx ON feeds (group_id, follower_count DESC, created_at DESC, fid);
