# Sourced by the bench scripts: starts `$bin serve` on a free port over $FEEDS_TEST_DATABASE_URL,
# with a data directory in a fresh $dir, and stops it (and removes $dir) when the script exits.
# Sets dir, port, key, secret, common (the flags every `feeds` command of the run takes), server
# (its pid) and token (a user token for `bench`).
source "$(dirname "${BASH_SOURCE[0]}")/limits.sh"
dir=$(mktemp -d /tmp/feeds-bench.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
key=bench-key
secret=bench-secret-0123456789abcdef0123456789abcdef
common=(--api-key "$key" --api-secret "$secret" --data-dir "$dir/data" --database-url "$FEEDS_TEST_DATABASE_URL")
"$bin" serve "${common[@]}" --port "$port" --ws-port 0 --log-level warning >"$dir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$dir"' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done
token=$("$bin" token --user bench "${common[@]}")
