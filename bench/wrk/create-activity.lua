-- make bench: the create of `feeds loadtest --scenario create-activity`, from wrk.
dofile(os.getenv("WRK_SCRIPTS") .. "/users.lua")

function request()
  local user, n, headers = next_user()
  local body = '{"type":"loadtest","feeds":["user:loadtest-' .. user .. '"],"text":"wrk-' .. n
    .. '","custom":{"seq":' .. n .. '}}'
  return wrk.format("POST", api_path("/feeds/activities"), headers, body)
end
