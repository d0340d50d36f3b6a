-- make bench: AddActivityReaction, from wrk. Users loadtest-0…99 react to the activities listed
-- in TARGETS (bench_reaction_targets, as pgbench reads them), one of four types each time.
dofile(os.getenv("WRK_SCRIPTS") .. "/users.lua")

local targets = {}
local types = { "like", "heart", "wow", "fire" }
local base_init = init

function init(args)
  base_init(args)
  for line in io.lines(os.getenv("TARGETS")) do targets[#targets + 1] = line end
end

function request()
  local user, n, headers = next_user()
  local activity = targets[math.random(#targets)]
  local body = '{"type":"' .. types[math.random(4)] .. '"}'
  return wrk.format("POST", api_path("/feeds/activities/" .. activity .. "/reactions"), headers, body)
end
