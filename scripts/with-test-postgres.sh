#!/usr/bin/env bash
# Runs a command with a private, throw-away PostgreSQL: started on a free port (fsync off),
# its URL in FEEDS_TEST_DATABASE_URL, stopped and deleted afterwards, even when the command fails.
set -euo pipefail

source "$(dirname "$0")/private-postgres.sh" feeds-test-pg
port=$(free_port)

stop() {
  "${as_pg[@]}" "$bin/pg_ctl" stop -D "$dir/data" -m immediate -w >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

"${as_pg[@]}" "$bin/initdb" -D "$dir/data" -U feeds --auth=trust --no-sync --encoding=UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log"; exit 1; }
"${as_pg[@]}" "$bin/pg_ctl" start -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=1000" \
  >/dev/null || { cat "$dir/postgres.log"; exit 1; }
echo "test PostgreSQL on 127.0.0.1:$port"

export FEEDS_TEST_DATABASE_URL="postgres://feeds@127.0.0.1:$port/postgres"
# Its server log, for make soak's count of the deadlocks PostgreSQL detected.
export FEEDS_TEST_POSTGRES_LOG="$dir/postgres.log"
"$@"
