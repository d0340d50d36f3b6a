#!/usr/bin/env bash
# Two builds in turns on the API rows, for a change meant to cost nothing (a refactor): create an
# activity, add a reaction, read a feed page, each c=32 under wrk, the builds taking turns round by
# round on databases of their own, medians. Prints each build's median req/s and new ÷ old; exits
# 1 when a row of the new build is more than AB_TOLERANCE (default 5%) slower.
# Usage: scripts/with-test-postgres.sh bench/ab.sh OLD_FEEDS NEW_FEEDS
# Env: BENCH_SECONDS (default 6) per round, AB_ROUNDS (default 5).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/limits.sh"
: "${FEEDS_TEST_DATABASE_URL:?run me under scripts/with-test-postgres.sh}"
here=$(cd "$(dirname "$0")" && pwd)
seconds=${BENCH_SECONDS:-6} rounds=${AB_ROUNDS:-5} tolerance=${AB_TOLERANCE:-5}
dir=$(mktemp -d /tmp/feeds-ab.XXXXXX)
key=bench-key secret=bench-secret-0123456789abcdef0123456789abcdef
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$dir"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

declare -A bin url db
bin[old]=$(realpath "$1") bin[new]=$(realpath "$2")
for side in old new; do
  psql -q "$FEEDS_TEST_DATABASE_URL" -c "DROP DATABASE IF EXISTS ab_$side" -c "CREATE DATABASE ab_$side"
  db[$side]=${FEEDS_TEST_DATABASE_URL%/*}/ab_$side
  port=$(free_port) url[$side]=http://127.0.0.1:$port
  common=(--api-key "$key" --api-secret "$secret" --data-dir "$dir/$side-data" --database-url "${db[$side]}")
  "${bin[$side]}" serve "${common[@]}" --port "$port" --ws-port 0 --log-level warning >"$dir/$side.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 200); do curl -sf "${url[$side]}/readyz" >/dev/null && break; sleep 0.1; done
  curl -sf "${url[$side]}/readyz" >/dev/null || { cat "$dir/$side.log"; exit 1; }
  for i in $(seq 0 99); do "${bin[$side]}" token --user "loadtest-$i" "${common[@]}"; done >"$dir/$side-tokens"
done

wrk_rps() { # side, scenario, seconds; prints req/s, fails on any failed request
  local out=$dir/$1-$2
  SCENARIO=$2 TOKENS=$dir/$1-tokens TARGETS=$dir/$1-targets API_KEY=$key REPORT=$out.json WRK_SCRIPTS=$here/wrk \
    wrk -t 2 -c 32 -d "${3}s" --timeout 10s -s "$here/wrk/$2.lua" "${url[$1]}" >"$out.log" 2>&1 || { cat "$out.log"; exit 1; }
  python3 - "$out.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
if report["errors"] > 0: sys.exit(f"requests failed: {report}")
print(report["throughput_rps"])
PY
}

row() { # scenario, label
  local old=() new=() i
  for side in old new; do wrk_rps "$side" "$1" 2 >/dev/null; done  # warm-up
  for i in $(seq 1 "$rounds"); do
    old+=("$(wrk_rps old "$1" "$seconds")")
    new+=("$(wrk_rps new "$1" "$seconds")")
  done
  python3 - "$2" "$tolerance" "${old[*]}" "${new[*]}" <<'PY'
import statistics, sys
label, tolerance = sys.argv[1], float(sys.argv[2])
old, new = [list(map(float, s.split())) for s in sys.argv[3:5]]
a, b = statistics.median(old), statistics.median(new)
verdict = "ok" if b >= a * (1 - tolerance / 100) else "SLOWER"
print(f"{label:<24} old {a:8.1f} req/s   new {b:8.1f} req/s   {b / a:5.3f}x   {verdict}")
print(f"{'':<24} rounds old {' '.join(f'{x:.0f}' for x in old)}; new {' '.join(f'{x:.0f}' for x in new)}")
sys.exit(0 if verdict == "ok" else 3)
PY
}

status=0
row create-activity "create activity" || status=1
# Each side reacts to 10,000 of the activities it just stored, as make bench does.
for side in old new; do
  psql -q "${db[$side]}" -c "CREATE TABLE ab_targets AS SELECT id FROM activities ORDER BY created_at DESC LIMIT 10000"
  psql -tA "${db[$side]}" -c "SELECT id FROM ab_targets" >"$dir/$side-targets"
done
row add-reaction "add a reaction" || status=1
row read-feed "read a feed page of 25" || status=1
exit $status
