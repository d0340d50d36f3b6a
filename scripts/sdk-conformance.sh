#!/usr/bin/env bash
# Drives a running `feeds serve` through Stream's official Python SDK (getstream, pinned), as an
# app's backend would: Tests/Conformance/python/conformance.py. One pass with the local-disk CDN,
# and a second on S3 when scripts/with-test-s3.sh runs around us. Each pass gets a fresh database
# in $FEEDS_TEST_DATABASE_URL's cluster (scripts/with-test-postgres.sh), so it cannot collide with
# the Swift tests. Prints one result line for CI; exits non-zero when a step failed.
#   scripts/with-test-postgres.sh scripts/with-test-s3.sh scripts/sdk-conformance.sh
# FEEDS_BINARY runs another build of the server (default .build/debug/feeds).
set -euo pipefail

pin=7.0.0
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.build/sdk-venv"
binary=${FEEDS_BINARY:-"$root/.build/debug/feeds"}
program="$root/Tests/Conformance/python/conformance.py"
: "${FEEDS_TEST_DATABASE_URL:?run me under scripts/with-test-postgres.sh}"
[ -x "$binary" ] || { echo "no server at $binary: run swift build first" >&2; exit 1; }
psql=$(command -v psql || ls /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -n 1)

# The venv is rebuilt when it is missing or was made for another pin.
if [ "$(cat "$venv/pin" 2>/dev/null)" != "$pin" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv" || { echo "python3 -m venv failed: run scripts/install-deps.sh (python3-venv)" >&2; exit 1; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check "getstream==$pin"
  echo "$pin" >"$venv/pin"
fi

work=$(mktemp -d /tmp/feeds-sdk-conformance.XXXXXX)
server_pid=""
databases=()
stop_server() {
  [ -n "$server_pid" ] || return 0
  kill -TERM "$server_pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}
cleanup() {
  stop_server
  for db in "${databases[@]}"; do
    "$psql" -q "$FEEDS_TEST_DATABASE_URL" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# start_server NAME [ENV=VALUE...]: a server on a fresh database and a free port, ready on return.
start_server() {
  local name=$1; shift
  local db="sdk_conformance_${name}_$$"
  "$psql" -q "$FEEDS_TEST_DATABASE_URL" -c "CREATE DATABASE $db" >/dev/null || return 1
  databases+=("$db")
  port=$(free_port)
  base_url="http://127.0.0.1:$port"
  server_log="$work/$name-server.log"
  env DATABASE_URL="${FEEDS_TEST_DATABASE_URL%/*}/$db" FEEDS_HOST=127.0.0.1 FEEDS_PORT="$port" \
    FEEDS_DATA_DIR="$work/$name-data" FEEDS_API_KEY="$api_key" FEEDS_API_SECRET="$api_secret" \
    FEEDS_LOG_LEVEL=info "$@" "$binary" serve >"$server_log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 600); do
    kill -0 "$server_pid" 2>/dev/null || { echo "the server exited at start:" >&2; tail -n 30 "$server_log" >&2; return 1; }
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$base_url/readyz")" = 200 ] && return 0
    sleep 0.1
  done
  echo "the server was not ready in 60 s:" >&2
  tail -n 30 "$server_log" >&2
  return 1
}

api_key=sdk-conformance-key
api_secret=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
passed=0
failed=0

# run_pass NAME [ENV=VALUE...]: one server, the whole program against it, its counts added up.
run_pass() {
  local name=$1; shift
  local counts="$work/$name-counts"
  echo "SDK conformance, $name pass"
  if ! start_server "$name" "$@"; then
    stop_server
    failed=$((failed + 1))
    return
  fi
  FEEDS_SDK_BASE_URL="$base_url" FEEDS_SDK_API_KEY="$api_key" FEEDS_SDK_API_SECRET="$api_secret" \
    FEEDS_SDK_PASS="$name" FEEDS_SDK_COUNTS="$counts" \
    PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" "$program" | tee "$work/$name-steps" || true
  stop_server
  if [ -s "$counts" ]; then
    read -r p f <"$counts"
  else
    p=0 f=1
    echo "FAIL $name: the program ended without counting its steps"
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  if [ "$f" -gt 0 ]; then
    echo "--- failed steps ($name pass):"
    grep '^FAIL ' "$work/$name-steps" || true
    echo "--- last lines of the server log ($name pass):"
    tail -n 40 "$server_log"
  fi
}

run_pass local
if [ -n "${FEEDS_TEST_S3_ENDPOINT:-}" ]; then
  run_pass s3 FEEDS_CDN=s3 FEEDS_S3_ENDPOINT="$FEEDS_TEST_S3_ENDPOINT" FEEDS_S3_BUCKET="$FEEDS_TEST_S3_BUCKET" \
    FEEDS_S3_REGION="$FEEDS_TEST_S3_REGION" AWS_ACCESS_KEY_ID="$FEEDS_TEST_S3_ACCESS_KEY_ID" \
    AWS_SECRET_ACCESS_KEY="$FEEDS_TEST_S3_SECRET_ACCESS_KEY"
fi

echo "SDK conformance (python getstream $pin): $passed passed, $failed failed"
[ "$failed" -eq 0 ]
