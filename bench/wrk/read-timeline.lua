-- make bench: a page of 25 of a reader's timeline (1,000 feeds followed), read by that reader;
-- TOKENS holds the tokens of tl-0..7.
dofile(os.getenv("WRK_SCRIPTS") .. "/users.lua")

function request()
  local user, _, headers = next_user()
  return wrk.format("POST", api_path("/feeds/feed_groups/timeline/feeds/tl-" .. user), headers, '{"limit":25}')
end
