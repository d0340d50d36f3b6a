-- Shared by the wrk scripts of make bench: request number i goes as user loadtest-(i mod 100),
-- with that user's token, like `feeds loadtest --users 100`; at the end, the run is written as
-- JSON in the fields of a `feeds loadtest --json` report (read by median_report.py, report.py).
-- Env: TOKENS (a file of 100 tokens, user 0 first), API_KEY, REPORT (the JSON's path).
local tokens = {}
local sent = 0

function init(args)
  for line in io.lines(os.getenv("TOKENS")) do tokens[#tokens + 1] = line end
end

-- The next request's user number and headers.
function next_user()
  sent = sent + 1
  local user = sent % #tokens
  return user, sent, {
    ["Content-Type"] = "application/json", ["Stream-Auth-Type"] = "jwt", ["Authorization"] = tokens[user + 1],
  }
end

function api_path(path)
  return "/api/v2" .. path .. "?api_key=" .. os.getenv("API_KEY")
end

function done(summary, latency, requests)
  local errors = summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout
  local seconds = summary.duration / 1e6
  local ms = function(us) return us / 1000 end
  local report = io.open(os.getenv("REPORT"), "w")
  report:write(string.format(
    '{"client":"wrk","scenario":"%s","requests":%d,"ok":%d,"errors":%d,"throughput_rps":%.1f,'
      .. '"latency_ms":{"p50":%.3f,"p90":%.3f,"p99":%.3f,"p99_9":%.3f,"max":%.3f,"mean":%.3f},"lost":0}\n',
    os.getenv("SCENARIO"), summary.requests, summary.requests - summary.errors.status, errors,
    summary.requests / seconds, ms(latency:percentile(50)), ms(latency:percentile(90)),
    ms(latency:percentile(99)), ms(latency:percentile(99.9)), ms(latency.max), ms(latency.mean)))
  report:close()
end
