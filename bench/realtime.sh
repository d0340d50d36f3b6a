#!/usr/bin/env bash
# make bench's real-time rows: two `feeds serve` nodes (A and B) on one database, then
#   idle:   10,000 sockets on B watching a feed, its RSS before and while they are held (memory per connection),
#           the fewest health checks a socket got in 25 s (every 10 s, so at least 2);
#   storm:  then 2,000 unauthenticated sockets on B as well, all closed: B's RSS a minute later (memory returned);
#   one:    1,000 sockets on A watching one feed while A takes 100 posts/s for 20 s;
#   across: the same with the sockets on B and the posts on A (events cross through PostgreSQL).
# Every acknowledged post must reach every watcher once. Writes one JSON file for report.py.
# Usage: bench/realtime.sh path/to/feeds out.json   (under scripts/with-test-postgres.sh)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/limits.sh"
bin=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
: "${FEEDS_TEST_DATABASE_URL:?run me under scripts/with-test-postgres.sh}"
dir=$(mktemp -d /tmp/feeds-realtime.XXXXXX)
key=bench-key
secret=bench-secret-0123456789abcdef0123456789abcdef
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
psql=$(command -v psql || echo "$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)/psql")
"$psql" -q "$FEEDS_TEST_DATABASE_URL" -c 'DROP DATABASE IF EXISTS realtime' -c 'CREATE DATABASE realtime'
db=${FEEDS_TEST_DATABASE_URL%/*}/realtime
# 10,000 sockets need as many descriptors in the server and in the client.
ulimit -n "$(ulimit -Hn)"

start() { # name; sets <name>_port, <name>_ws, <name>_pid
  local port ws
  port=$(free_port) ws=$(free_port)
  "$bin" serve --api-key "$key" --api-secret "$secret" --data-dir "$dir/$1" --database-url "$db" \
    --port "$port" --ws-port "$ws" --log-level warning >"$dir/$1.log" 2>&1 &
  pids+=($!)
  printf -v "$1_pid" '%s' "$!"
  printf -v "$1_port" '%s' "$port"
  printf -v "$1_ws" '%s' "ws://127.0.0.1:$ws/api/v2/connect"
  for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done
  curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || { cat "$dir/$1.log"; exit 1; }
}
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
run() { # name, ws url, watchers, rate, seconds, prefix
  "$bin" loadtest --scenario realtime --url "http://127.0.0.1:$a_port" --ws-url "$2" --api-key "$key" --api-secret "$secret" \
    --watchers "$3" --rate "$4" --duration "$5" --user-prefix "$6" --json "$dir/$1.json" --no-progress
}

start a
start b
echo "== real time: 10,000 idle sockets on one node"
rss_before=$(rss_kb "$b_pid")
run idle "$b_ws" 10000 0 25 idle >"$dir/idle.log" &
loader=$!
# Sampled 10 s after every socket is open and watching (the run says so), in the steady state.
for _ in $(seq 1 1200); do grep -q '^holding' "$dir/idle.log" && break; sleep 0.1; done
sleep 10
rss_during=$(rss_kb "$b_pid")
wait "$loader"
cat "$dir/idle.log"
echo "RSS before ${rss_before} kB, with 10,000 sockets ${rss_during} kB"
echo "== real time: 2,000 unauthenticated sockets more, then a minute with none"
ws_port=${b_ws#ws://127.0.0.1:}
python3 "$here/flood.py" 127.0.0.1 "${ws_port%%/*}" 2000
rss_peak=$(awk '/^VmHWM:/ {print $2}' "/proc/$b_pid/status")
sleep 60
rss_after=$(rss_kb "$b_pid")
echo "RSS a minute after 12,000 sockets ended ${rss_after} kB (peak ${rss_peak} kB)"

echo "== real time: 1,000 watchers of one feed, 100 posts/s, one node"
run one "$a_ws" 1000 100 20 one
echo "== real time: the same, the watchers on another node"
run across "$b_ws" 1000 100 20 across

python3 - "$dir" "$rss_before" "$rss_during" "$out" "$rss_after" "$rss_peak" <<'PY'
import json, sys
d, before, during, out, after, peak = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
idle = json.load(open(f"{d}/idle.json"))
json.dump({"idle": {**idle, "rss_before_kb": before, "rss_during_kb": during,
                    "per_connection_kb": (during - before) / idle["watchers"]},
           "storm": {"rss_before_kb": before, "rss_peak_kb": peak, "rss_after_minute_kb": after,
                     "returned_within_mb": (after - before) / 1024},
           "one": json.load(open(f"{d}/one.json")), "across": json.load(open(f"{d}/across.json"))}, open(out, "w"), indent=2)
PY
