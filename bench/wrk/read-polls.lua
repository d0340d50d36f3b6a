-- make bench: a page of 25 activities that each carry a poll (bench/poll-data.sql), from wrk:
-- users pollpage-0…15 (TOKENS, in order) each read their own feed, as read-feed.lua does.
dofile(os.getenv("WRK_SCRIPTS") .. "/users.lua")

function request()
  local user, _, headers = next_user()
  return wrk.format("POST", api_path("/feeds/feed_groups/user/feeds/pollpage-" .. user), headers, '{"limit":25}')
end
