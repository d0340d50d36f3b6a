-- make bench: a page of 25 groups of a notification feed of 100,000 notifications, read by its
-- owner; TOKENS holds the tokens of bell-0..3.
dofile(os.getenv("WRK_SCRIPTS") .. "/users.lua")

function request()
  local user, _, headers = next_user()
  return wrk.format("POST", api_path("/feeds/feed_groups/notification/feeds/bell-" .. user), headers, '{"limit":25}')
end
