#!/usr/bin/env bash
# make bench: posts by tl-star (100,000 followers) and by tl-quiet (none), in turns, five each:
# the create's time as the client sees it, and for the star's, the time until the post is in
# all 100,000 followers' timelines (polled in PostgreSQL every 20 ms). Prints a JSON report.
# Usage: bench/fanout.sh URL API_KEY DATABASE_URL STAR_TOKEN QUIET_TOKEN
set -euo pipefail
url=$1 key=$2 db=$3 star=$4 quiet=$5
psql=$(command -v psql || echo "$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)/psql")
post() { # token, user; prints "seconds id"
  curl -s -o /tmp/fanout-post.$$ -w '%{time_total}\n' -H 'Content-Type: application/json' -H 'Stream-Auth-Type: jwt' \
    -H "Authorization: $1" -d "{\"type\":\"post\",\"feeds\":[\"user:$2\"],\"text\":\"fan-out bench\"}" \
    "$url/api/v2/feeds/activities?api_key=$key" | tr -d '\n'
  printf ' %s\n' "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["activity"]["id"])' /tmp/fanout-post.$$)"
}
now() { date +%s.%N; }
star_times=() quiet_times=() spread=()
for _ in 1 2 3 4 5; do
  read -r quiet_s _ < <(post "$quiet" tl-quiet)
  quiet_times+=("$quiet_s")
  start=$(now)
  read -r star_s id < <(post "$star" tl-star)
  star_times+=("$star_s")
  while [ "$("$psql" -tA "$db" -c "SELECT count(*) FROM activity_feeds WHERE activity_id = '$id' AND via IS NOT NULL")" -lt 100000 ]; do
    sleep 0.02
    if python3 -c "import sys; sys.exit(0 if float(sys.argv[2]) - float(sys.argv[1]) < 60 else 1)" "$start" "$(now)"; then :; else
      echo "the post was not in every timeline after 60 s" >&2; exit 1
    fi
  done
  spread+=("$(python3 -c 'import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 3))' "$start" "$(now)")")
done
rm -f /tmp/fanout-post.$$
python3 - "${star_times[*]}" "${quiet_times[*]}" "${spread[*]}" <<'PY'
import json, statistics, sys
star, quiet, spread = ([float(x) for x in arg.split()] for arg in sys.argv[1:4])
print(json.dumps({"star_create_ms": [round(x * 1000, 2) for x in star], "quiet_create_ms": [round(x * 1000, 2) for x in quiet],
                  "spread_s": spread, "star_median_ms": statistics.median(star) * 1000,
                  "quiet_median_ms": statistics.median(quiet) * 1000, "spread_max_s": max(spread)}))
PY
