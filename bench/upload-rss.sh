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
source "$(dirname "$0")/serve.sh"

truncate -s 100M "$dir/file.bin"
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
