-- make bench: a page of 25 through the popular view `popular-bench`, on a reader's timeline;
-- TOKENS holds the tokens of tl-0..7.
dofile(os.getenv("WRK_SCRIPTS") .. "/users.lua")

function request()
  local user, _, headers = next_user()
  return wrk.format("POST", api_path("/feeds/feed_groups/timeline/feeds/tl-" .. user), headers,
    '{"limit":25,"view":"popular-bench"}')
end
