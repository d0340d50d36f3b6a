#!/usr/bin/env bash
# make bench's webhook row: a `feeds serve` node whose app's webhook_url is a receiver on
# loopback (`feeds loadtest --scenario webhooks`), while 100 authors post 1,000 activities a second
# between them for 20 s, in UpsertActivities batches of 10 (WEBHOOK_BATCH=1: one AddActivity each).
# Every acknowledged post's event must reach the receiver once; the report gives the rate it got
# them at and the time from each 201 (commit) to its delivery.
# Usage: bench/webhooks.sh path/to/feeds out.json   (under scripts/with-test-postgres.sh)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/limits.sh"
bin=$1 out=$2
: "${FEEDS_TEST_DATABASE_URL:?run me under scripts/with-test-postgres.sh}"
dir=$(mktemp -d /tmp/feeds-webhooks.XXXXXX)
key=bench-key
secret=bench-secret-0123456789abcdef0123456789abcdef
server=""
cleanup() {
  [ -n "$server" ] && { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
  rm -rf "$dir"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
psql=$(command -v psql || echo "$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)/psql")
"$psql" -q "$FEEDS_TEST_DATABASE_URL" -c 'DROP DATABASE IF EXISTS webhooks' -c 'CREATE DATABASE webhooks'
port=$(free_port)
FEEDS_WEBHOOK_ALLOWED_HOSTS=127.0.0.1 "$bin" serve --api-key "$key" --api-secret "$secret" --data-dir "$dir/data" \
  --database-url "${FEEDS_TEST_DATABASE_URL%/*}/webhooks" --port "$port" --ws-port 0 --log-level warning >"$dir/server.log" 2>&1 &
server=$!
for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || { cat "$dir/server.log"; exit 1; }
# A lost or doubled event fails the row in report.py, with the numbers, rather than the run here.
"$bin" loadtest --scenario webhooks --url "http://127.0.0.1:$port" --api-key "$key" --api-secret "$secret" \
  --rate 1000 --duration 20 --users 100 --batch "${WEBHOOK_BATCH:-10}" --json "$out" --no-progress || [ -s "$out" ] || { cat "$dir/server.log"; exit 1; }
