-- make soak's contention mix: every request on one activity (ACTIVITY) and one of its comments
-- (COMMENT), as a post gone viral takes them: comments, replies, reactions added and removed, and
-- reactions on the comment, by users loadtest-0…99. Request n goes as user u = n mod 100 in round
-- r = n div 100, and does kind (u + r) mod 5: each user takes every kind in turn, and removes its
-- reaction (its own type) the round after adding it, so every request should succeed. Writes
-- REPORT as JSON: the requests and the 4xx and 5xx among them.
dofile(os.getenv("WRK_SCRIPTS") .. "/users.lua")

local activity, comment = os.getenv("ACTIVITY"), os.getenv("COMMENT")
local types = { "like", "heart", "wow", "fire" }
local threads = {}

function setup(thread)
  threads[#threads + 1] = thread
end

function request()
  local user, n, headers = next_user()
  local kind = (user + math.floor(n / 100)) % 5
  -- In the first round there is nothing to remove yet: add instead.
  if kind == 3 and n < 100 then kind = 2 end
  local reaction = types[user % 4 + 1]
  if kind == 0 then
    return wrk.format("POST", api_path("/feeds/comments"), headers,
      '{"object_id":"' .. activity .. '","object_type":"activity","comment":"soak ' .. n .. '"}')
  elseif kind == 1 then
    return wrk.format("POST", api_path("/feeds/comments"), headers,
      '{"parent_id":"' .. comment .. '","comment":"reply ' .. n .. '"}')
  elseif kind == 2 then
    return wrk.format("POST", api_path("/feeds/activities/" .. activity .. "/reactions"), headers,
      '{"type":"' .. reaction .. '"}')
  elseif kind == 3 then
    return wrk.format("DELETE", api_path("/feeds/activities/" .. activity .. "/reactions/" .. reaction), headers)
  else
    return wrk.format("POST", api_path("/feeds/comments/" .. comment .. "/reactions"), headers,
      '{"type":"' .. reaction .. '"}')
  end
end

server_errors, client_errors = 0, 0

function response(status, headers, body)
  if status >= 500 then server_errors = server_errors + 1 elseif status >= 400 then client_errors = client_errors + 1 end
end

function done(summary, latency, requests)
  local five, four = 0, 0
  for _, thread in ipairs(threads) do
    five = five + thread:get("server_errors")
    four = four + thread:get("client_errors")
  end
  local report = io.open(os.getenv("REPORT"), "w")
  report:write(string.format(
    '{"requests":%d,"server_errors":%d,"client_errors":%d,"socket_errors":%d,"p99_ms":%.3f}\n',
    summary.requests, five, four,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(99) / 1000))
  report:close()
end
