#!/usr/bin/env bash
# A 100 MB upload must leave the server's peak RSS (VmHWM) within 64 MB of where it was.
# Usage: bench/upload-rss.sh [path/to/feeds] [local|s3]   (run under scripts/with-test-postgres.sh,
# and for s3 also under scripts/with-test-s3.sh: the upload then streams to that store)
set -euo pipefail

bin=${1:-.build/release/feeds}
store=${2:-local}
: "${FEEDS_TEST_DATABASE_URL:?run me under scripts/with-test-postgres.sh}"
if [ "$store" = s3 ]; then
  : "${FEEDS_TEST_S3_ENDPOINT:?run me under scripts/with-test-s3.sh}"
  export FEEDS_CDN=s3 FEEDS_S3_ENDPOINT="$FEEDS_TEST_S3_ENDPOINT" FEEDS_S3_BUCKET="$FEEDS_TEST_S3_BUCKET" \
    FEEDS_S3_REGION="$FEEDS_TEST_S3_REGION" AWS_ACCESS_KEY_ID="$FEEDS_TEST_S3_ACCESS_KEY_ID" \
    AWS_SECRET_ACCESS_KEY="$FEEDS_TEST_S3_SECRET_ACCESS_KEY"
fi
dir=$(mktemp -d /tmp/feeds-bench.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
key=bench-key
secret=bench-secret-0123456789abcdef0123456789abcdef
common=(--api-key "$key" --api-secret "$secret" --data-dir "$dir/data" --database-url "$FEEDS_TEST_DATABASE_URL")

"$bin" serve "${common[@]}" --port "$port" --log-level warning >"$dir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$dir"' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done

truncate -s 100M "$dir/file.bin"
token=$("$bin" token --user bench "${common[@]}")
hwm() { awk '/VmHWM/ {print $2}' "/proc/$server/status"; }

before=$(hwm)
result=$(curl -s -o "$dir/reply.json" -w '%{http_code} %{time_total}' \
  -H 'Stream-Auth-Type: jwt' -H "Authorization: $token" -F "file=@$dir/file.bin" \
  "http://127.0.0.1:$port/api/v2/uploads/file?api_key=$key")
after=$(hwm)
growth=$(( (after - before) / 1024 ))

read -r status seconds <<<"$result"
echo "100 MB upload to $store: HTTP $status in ${seconds}s; peak RSS ${before} kB -> ${after} kB (+${growth} MB; bound 64 MB)"
[ "$status" = 201 ] || { cat "$dir/reply.json"; exit 1; }
[ "$growth" -lt 64 ] || { echo "peak RSS grew by ${growth} MB"; exit 1; }
