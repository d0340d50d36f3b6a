# Sourced by the scripts that drive a built `feeds serve` from outside (sdk-conformance.sh,
# schema-fuzz.sh). Each server gets a free port and a fresh database in $FEEDS_TEST_DATABASE_URL's
# cluster (scripts/with-test-postgres.sh), so it cannot collide with the Swift tests. The binary is
# copied first, so a rebuild while a run is under way does not pull it from under us.
#
# Before `test_server_setup NAME`, the caller sets `binary`, `api_key` and `api_secret`. Afterwards
# `work` is a private temp folder, `binary` the copy, and an EXIT trap stops the server, drops the
# databases and removes `work`. `start_server` sets `server_pid`, `port`, `base_url`, `server_log`.

# test_server_setup NAME: checks the binary and the database, makes `work`, copies the binary.
test_server_setup() {
  : "${FEEDS_TEST_DATABASE_URL:?run me under scripts/with-test-postgres.sh}"
  [ -x "$binary" ] || { echo "no server at $binary: run swift build first" >&2; exit 1; }
  test_server_name=$1
  psql=$(command -v psql || ls /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -n 1)
  work=$(mktemp -d "/tmp/feeds-$test_server_name.XXXXXX")
  server_pid=""
  databases=()
  trap test_server_cleanup EXIT
  # A link in progress writes the binary for a few seconds: copy it once it has been still for 2 s
  # and did not change while copied. The migrations travel beside it (SwiftPM's resource bundles).
  mkdir "$work/bin"
  local stamp=""
  for _ in $(seq 1 60); do
    stamp=$(stat -c '%Y %s' "$binary")
    if [ $(($(date +%s) - ${stamp%% *})) -ge 2 ]; then
      cp "$binary" "$work/bin/feeds"
      [ "$(stat -c '%Y %s' "$binary")" = "$stamp" ] && break
    fi
    stamp=""
    sleep 1
  done
  [ -n "$stamp" ] || { echo "$binary kept changing for a minute: is a build running?" >&2; exit 1; }
  cp -R "$(dirname "$binary")"/*.resources "$work/bin/" 2>/dev/null || true
  binary="$work/bin/feeds"
}

stop_server() {
  [ -n "$server_pid" ] || return 0
  kill -TERM "$server_pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

test_server_cleanup() {
  stop_server
  for db in "${databases[@]}"; do
    "$psql" -q "$FEEDS_TEST_DATABASE_URL" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  done
  rm -rf "$work"
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# start_server NAME [ENV=VALUE...]: a server on a fresh database and a free port, ready on return.
start_server() {
  local name=$1; shift
  local db="${test_server_name//-/_}_${name}_$$"
  "$psql" -q "$FEEDS_TEST_DATABASE_URL" -c "CREATE DATABASE $db" >/dev/null || return 1
  databases+=("$db")
  port=$(free_port)
  ws_port=$(free_port)
  base_url="http://127.0.0.1:$port"
  ws_url="ws://127.0.0.1:$ws_port/api/v2/connect"
  server_log="$work/$name-server.log"
  env DATABASE_URL="${FEEDS_TEST_DATABASE_URL%/*}/$db" FEEDS_HOST=127.0.0.1 FEEDS_PORT="$port" FEEDS_WS_PORT="$ws_port" \
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

# python_venv DIR PACKAGE==PIN: a venv at DIR holding the pinned package, made again when it is
# missing or was made for another pin.
python_venv() {
  local venv=$1 requirement=$2
  [ "$(cat "$venv/pin" 2>/dev/null)" = "$requirement" ] && return 0
  rm -rf "$venv"
  python3 -m venv "$venv" || { echo "python3 -m venv failed: run scripts/install-deps.sh (python3-venv)" >&2; exit 1; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$requirement"
  echo "$requirement" >"$venv/pin"
}

# counts_of FILE LABEL: the "PASSED FAILED" line a test program wrote to FILE; a program that
# wrote none (it crashed, never started, or was stopped by its `timeout`) counts as one failure,
# and says so.
counts_of() {
  if [ -s "$1" ]; then
    cat "$1"
  else
    echo "FAIL $2: the program ended without counting its steps" >&2
    echo "0 1"
  fi
}
