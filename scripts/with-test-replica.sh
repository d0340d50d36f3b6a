#!/usr/bin/env bash
# Runs a command with a private primary and a streaming replica of it (pg_basebackup -R, so the
# replica follows through primary_conninfo), each on a free port; stopped and deleted afterwards,
# even when the command fails. A pair apart from scripts/with-test-postgres.sh's cluster, so the
# replica does not replay every other test's databases. Exports:
#   FEEDS_TEST_REPLICATED_DATABASE_URL  the primary (its maintenance database)
#   FEEDS_TEST_REPLICA_DATABASE_URL     the replica (the same; a test swaps in its database)
#   FEEDS_TEST_REPLICA_CONTROL          a script: `stop`, `start`, `delay 300ms` (recovery_min_apply_delay)
# Nests with the others: scripts/with-test-postgres.sh scripts/with-test-replica.sh swift test
set -euo pipefail

source "$(dirname "$0")/private-postgres.sh" feeds-test-replica
primary_port=$(free_port)
replica_port=$(free_port)

stop() {
  "${as_pg[@]}" "$bin/pg_ctl" stop -D "$dir/replica" -m immediate -w >/dev/null 2>&1 || true
  "${as_pg[@]}" "$bin/pg_ctl" stop -D "$dir/primary" -m immediate -w >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

options="-k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=300"
"${as_pg[@]}" "$bin/initdb" -D "$dir/primary" -U feeds --auth=trust --no-sync --encoding=UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log"; exit 1; }
"${as_pg[@]}" "$bin/pg_ctl" start -D "$dir/primary" -l "$dir/primary.log" -w -t 60 -o "-p $primary_port $options" >/dev/null \
  || { cat "$dir/primary.log"; exit 1; }
# The replica: a base backup that writes its own primary_conninfo and standby.signal.
"${as_pg[@]}" "$bin/pg_basebackup" -D "$dir/replica" -h 127.0.0.1 -p "$primary_port" -U feeds -X stream -R --no-sync \
  >"$dir/basebackup.log" 2>&1 || { cat "$dir/basebackup.log"; exit 1; }

control="$dir/replica-control.sh"
cat >"$control" <<EOF
#!/usr/bin/env bash
# stop | start | delay <interval>: the test replica of $dir
set -euo pipefail
# A server started here must not hold the caller's descriptors: a caller that learns of this
# script's end by a pipe closing (Foundation's Process) would wait for the server to stop.
for fd in /proc/\$\$/fd/*; do
  n=\${fd##*/}
  if [ "\$n" -gt 2 ] && [ "\$n" -ne 255 ]; then eval "exec \$n>&-" 2>/dev/null || true; fi
done
case "\${1:-}" in
  stop) ${as_pg[*]} "$bin/pg_ctl" stop -D "$dir/replica" -m fast -w >/dev/null ;;
  start) ${as_pg[*]} "$bin/pg_ctl" start -D "$dir/replica" -l "$dir/replica.log" -w -t 60 -o "-p $replica_port $options" >/dev/null ;;
  delay)
    echo "recovery_min_apply_delay = '\$2'" | ${as_pg[*]} tee -a "$dir/replica/postgresql.auto.conf" >/dev/null
    ${as_pg[*]} "$bin/pg_ctl" reload -D "$dir/replica" >/dev/null ;;
  *) echo "usage: \$0 stop|start|delay <interval>" >&2; exit 2 ;;
esac
EOF
chmod 755 "$control"
"$control" start || { cat "$dir/replica.log"; exit 1; }
echo "test primary on 127.0.0.1:$primary_port, its streaming replica on 127.0.0.1:$replica_port"

export FEEDS_TEST_REPLICATED_DATABASE_URL="postgres://feeds@127.0.0.1:$primary_port/postgres"
export FEEDS_TEST_REPLICA_DATABASE_URL="postgres://feeds@127.0.0.1:$replica_port/postgres"
export FEEDS_TEST_REPLICA_CONTROL="$control"
"$@"
