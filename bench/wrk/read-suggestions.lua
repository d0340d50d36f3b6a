-- make bench: GetFollowSuggestions (10) for one of the readers tl-0..7, each following 1,000
-- feeds; TOKENS holds their tokens.
dofile(os.getenv("WRK_SCRIPTS") .. "/users.lua")

function request()
  local _, _, headers = next_user()
  return wrk.format("GET", api_path("/feeds/feed_groups/user/follow_suggestions") .. "&limit=10", headers)
end
