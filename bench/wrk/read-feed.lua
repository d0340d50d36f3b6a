-- make bench: the page of `feeds loadtest --scenario read-feed` (25 activities of the user's own
-- feed, read by that user), from wrk.
dofile(os.getenv("WRK_SCRIPTS") .. "/users.lua")

function request()
  local user, _, headers = next_user()
  return wrk.format("POST", api_path("/feeds/feed_groups/user/feeds/loadtest-" .. user), headers, '{"limit":25}')
end
