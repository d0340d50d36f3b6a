-- make bench: AddActivityReaction, from wrk. Users loadtest-0…99 react to the activities listed
-- in TARGETS (bench_reaction_targets, as pgbench reads them), one of four types each time. With
-- NOTIFY=1, each asks for create_notification_activity: the activity's author is told.
dofile(os.getenv("WRK_SCRIPTS") .. "/users.lua")

local targets = {}
local types = { "like", "heart", "wow", "fire" }
local base_init = init

-- Each thread its own random sequence: with wrk's one seed, both threads sent the same reactions
-- at the same moment.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end

function init(args)
  base_init(args)
  math.randomseed(os.time() * 100 + thread_number)
  for line in io.lines(os.getenv("TARGETS")) do targets[#targets + 1] = line end
end

function request()
  local user, n, headers = next_user()
  local activity = targets[math.random(#targets)]
  local notify = os.getenv("NOTIFY") == "1" and ',"create_notification_activity":true' or ""
  local body = '{"type":"' .. types[math.random(4)] .. '"' .. notify .. '}'
  return wrk.format("POST", api_path("/feeds/activities/" .. activity .. "/reactions"), headers, body)
end
