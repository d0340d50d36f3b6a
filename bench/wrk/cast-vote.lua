-- make bench: CastPollVote, from wrk. Voters voter-0…63 (TOKENS, in order) vote on the one poll
-- of the activity poll-bench-activity (bench-poll, a vote a voter), each time for one of its four
-- options ("1"…"4") at random, as bench/pgbench/cast-vote.sql does.
dofile(os.getenv("WRK_SCRIPTS") .. "/users.lua")

-- Each thread its own random sequence, as in add-reaction.lua.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end

local base_init = init
function init(args)
  base_init(args)
  math.randomseed(os.time() * 100 + thread_number)
end

function request()
  local _, _, headers = next_user()
  local body = '{"vote":{"option_id":"' .. math.random(4) .. '"}}'
  return wrk.format("POST", api_path("/feeds/activities/poll-bench-activity/polls/bench-poll/vote"), headers, body)
end
