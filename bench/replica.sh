#!/usr/bin/env bash
# Read replicas, measured on the pair scripts/with-test-replica.sh starts: two servers on one
# database, one reading from the primary alone and one with FEEDS_READ_DATABASE_URLS. The feed
# page (wrk, c=32) in turns on each, three rounds, medians: on these same two cores a replica adds
# no CPU, so the ratio shows what routing costs, not what a replica on its own machine gains. And
# the replica's lag as the server sees it (feeds_replica_lag_seconds, sampled every 200 ms) while
# it takes the create row's load.
# Usage: bench/replica.sh path/to/feeds out.json   Env: BENCH_SECONDS (default 10)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/limits.sh"
bin=$(realpath "$1")
out=$2
: "${FEEDS_TEST_REPLICATED_DATABASE_URL:?run me under scripts/with-test-replica.sh}"
here=$(cd "$(dirname "$0")" && pwd)
seconds=${BENCH_SECONDS:-10}
dir=$(mktemp -d /tmp/feeds-bench-replica.XXXXXX)
key=bench-key
secret=bench-secret-0123456789abcdef0123456789abcdef
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

psql -q "$FEEDS_TEST_REPLICATED_DATABASE_URL" -c 'CREATE DATABASE bench'
db=${FEEDS_TEST_REPLICATED_DATABASE_URL%/*}/bench
replica_db=${FEEDS_TEST_REPLICA_DATABASE_URL%/*}/bench
common=(--api-key "$key" --api-secret "$secret" --database-url "$db")
serve() { # name, extra environment...; prints the port once the server is ready
  local name=$1 port
  shift
  port=$(free_port)
  env "$@" "$bin" serve "${common[@]}" --data-dir "$dir/$name" --port "$port" --ws-port 0 --log-level warning \
    >"$dir/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done
  curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || { cat "$dir/$name.log" >&2; exit 1; }
  echo "$port"
}
primary_port=$(serve primary)  # the first one migrates the database
replica_port=$(serve replica FEEDS_READ_DATABASE_URLS="$replica_db")
for i in $(seq 0 99); do "$bin" token --user "loadtest-$i" "${common[@]}" --data-dir "$dir/primary"; done >"$dir/tokens"

wrk_run() { # scenario, port, name, seconds
  SCENARIO=$1 TOKENS=$dir/tokens API_KEY=$key REPORT=$dir/$3.json WRK_SCRIPTS=$here/wrk \
    wrk -t 2 -c 32 -d "${4}s" --timeout 10s -s "$here/wrk/$1.lua" "http://127.0.0.1:$2" >"$dir/$3.log" 2>&1 \
    || { cat "$dir/$3.log"; exit 1; }
  python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["errors"] > 0)' "$dir/$3.json" \
    || { echo "wrk $1: requests failed"; cat "$dir/$3.log" "$dir/$3.json"; exit 1; }
}
metric() { # port, metric line prefix; prints its value (0 when absent)
  curl -sf "http://127.0.0.1:$1/metrics" | awk -v p="$2" 'index($0, p) == 1 {v = $NF} END {print v + 0}'
}

echo "== replication lag under the create load, c=32"
# The creates go through the server with the replica, whose poller samples the lag.
(
  while true; do metric "$replica_port" 'feeds_replica_lag_seconds{' >>"$dir/lag"; sleep 0.2; done
) &
sampler=$!
pids+=("$sampler")
wrk_run create-activity "$replica_port" create "$seconds"
kill "$sampler" 2>/dev/null || true
psql -q "$db" -c 'VACUUM ANALYZE'

echo "== read a feed page of 25, c=32: the primary alone, and with reads on the replica, in turns"
replica_before=$(metric "$replica_port" 'feeds_reads_total{on="replica"}')
round=$(( (seconds + 1) / 2 ))
wrk_run read-feed "$primary_port" warm-primary 2
wrk_run read-feed "$replica_port" warm-replica 2
for i in 1 2 3; do
  wrk_run read-feed "$primary_port" primary-$i "$round"
  wrk_run read-feed "$replica_port" replica-$i "$round"
done
replica_reads=$(( $(metric "$replica_port" 'feeds_reads_total{on="replica"}') - replica_before ))
primary_reads=$(metric "$replica_port" 'feeds_reads_total{on="primary"}')

python3 - "$out" "$dir" "$replica_reads" "$primary_reads" <<'PY'
import json, sys
out, d, replica_reads, primary_reads = sys.argv[1], sys.argv[2], int(float(sys.argv[3])), int(float(sys.argv[4]))
def median(name):
    runs = sorted((json.load(open(f"{d}/{name}-{i}.json")) for i in (1, 2, 3)), key=lambda r: r["throughput_rps"])
    return runs[1]
primary, replica = median("primary"), median("replica")
lags = sorted(float(line) for line in open(f"{d}/lag") if float(line) >= 0)
result = {
    "primary_rps": primary["throughput_rps"], "replica_rps": replica["throughput_rps"],
    "primary_p99_ms": primary["latency_ms"]["p99"], "replica_p99_ms": replica["latency_ms"]["p99"],
    "ratio": replica["throughput_rps"] / primary["throughput_rps"],
    "reads_on_replica": replica_reads, "reads_on_primary_of_the_replica_server": primary_reads,
    "lag_samples": len(lags),
    "lag_p50_ms": 1000 * lags[len(lags) // 2] if lags else None,
    "lag_max_ms": 1000 * lags[-1] if lags else None,
}
json.dump(result, open(out, "w"))
print(json.dumps(result))
PY
