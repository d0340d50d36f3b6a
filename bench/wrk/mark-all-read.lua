-- make bench: mark_all_read on the notification feed of BELL (TOKENS holds its token), over and
-- over on one connection: the time of one mark, as the client sees it.
dofile(os.getenv("WRK_SCRIPTS") .. "/users.lua")

function request()
  local _, _, headers = next_user()
  return wrk.format(
    "POST", api_path("/feeds/feed_groups/notification/feeds/" .. os.getenv("BELL") .. "/activities/mark/batch"), headers,
    '{"mark_all_read":true}')
end
