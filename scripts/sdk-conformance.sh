#!/usr/bin/env bash
# Drives a running `feeds serve` through Stream's official Python SDK (getstream, pinned), as an
# app's backend would: Tests/Conformance/python/conformance.py. One pass with the local-disk CDN,
# and a second on S3 when scripts/with-test-s3.sh runs around us. Each pass gets a fresh database
# in $FEEDS_TEST_DATABASE_URL's cluster (scripts/lib/test-server.sh), so it cannot collide with
# the Swift tests. Prints one result line for CI; exits non-zero when a step failed.
#   scripts/with-test-postgres.sh scripts/with-test-s3.sh scripts/sdk-conformance.sh
# FEEDS_BINARY runs another build of the server (default .build/debug/feeds).
set -euo pipefail

pin=7.0.0
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.build/sdk-venv"
binary=${FEEDS_BINARY:-"$root/.build/debug/feeds"}
program="$root/Tests/Conformance/python/conformance.py"
. "$root/scripts/lib/test-server.sh"
test_server_setup sdk-conformance

python_venv "$venv" "getstream==$pin"

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
    PYTHONDONTWRITEBYTECODE=1 timeout 15m "$venv/bin/python" "$program" | tee "$work/$name-steps" || true
  stop_server
  read -r p f <<<"$(counts_of "$counts" "$name")"
  passed=$((passed + p))
  failed=$((failed + f))
  if [ "$f" -gt 0 ]; then
    echo "--- failed steps ($name pass):"
    grep '^FAIL ' "$work/$name-steps" || true
    echo "--- last lines of the server log ($name pass):"
    tail -n 40 "$server_log"
  fi
}

# The steps' web page and webhook receiver are on loopback (steps_links.py, steps_webhooks.py),
# which GetOG and webhooks refuse unless allowed.
loopback=(FEEDS_OG_ALLOWED_HOSTS=127.0.0.1 FEEDS_WEBHOOK_ALLOWED_HOSTS=127.0.0.1 FEEDS_WEBHOOK_MAX_BACKOFF=1)
run_pass local "${loopback[@]}"
if [ -n "${FEEDS_TEST_S3_ENDPOINT:-}" ]; then
  run_pass s3 "${loopback[@]}" FEEDS_CDN=s3 FEEDS_S3_ENDPOINT="$FEEDS_TEST_S3_ENDPOINT" FEEDS_S3_BUCKET="$FEEDS_TEST_S3_BUCKET" \
    FEEDS_S3_REGION="$FEEDS_TEST_S3_REGION" AWS_ACCESS_KEY_ID="$FEEDS_TEST_S3_ACCESS_KEY_ID" \
    AWS_SECRET_ACCESS_KEY="$FEEDS_TEST_S3_SECRET_ACCESS_KEY"
fi

echo "SDK conformance (python getstream $pin): $passed passed, $failed failed"
[ "$failed" -eq 0 ]
