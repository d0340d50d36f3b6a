#!/usr/bin/env bash
# Fuzzes a running `feeds serve` against the spec it serves (/openapi.yaml) with schemathesis
# (pinned): every operation, every check, a bounded number of examples each, a fixed seed. Passes
# only with no server error, no response outside the spec and no invalid request accepted. The
# server runs on a fresh database in $FEEDS_TEST_DATABASE_URL's cluster (scripts/lib/test-server.sh).
# Tests/Fuzz/schemathesis_hooks.py keeps generated cases to the rules no schema can state (fresh
# Idempotency-Keys, server-issued cursors, the acting user of a server token). Every check runs
# but positive_data_acceptance: it fails any 400 to a request the schema allows, and the server
# refuses many on rules OpenAPI cannot state (filter grammars, a feed that must exist, limits
# across fields, the one-field sort of QueryActivities). The three that matter all run: no
# server error, every response in the spec, no invalid request accepted (negative_data_rejection).
# The server's auth is declared in the spec, so ignored_auth holds it to a 401.
# Prints one result line for CI; exits non-zero on any failure.
#   scripts/with-test-postgres.sh scripts/schema-fuzz.sh
# FEEDS_BINARY runs another build of the server (default .build/debug/feeds); FEEDS_FUZZ_EXAMPLES
# sets the examples per operation (default 100), FEEDS_FUZZ_SEED the seed.
set -euo pipefail

pin=4.32.5
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.build/fuzz-venv"
binary=${FEEDS_BINARY:-"$root/.build/debug/feeds"}
examples=${FEEDS_FUZZ_EXAMPLES:-100}
seed=${FEEDS_FUZZ_SEED:-21}
. "$root/scripts/lib/test-server.sh"
test_server_setup schema-fuzz

python_venv "$venv" "schemathesis==$pin"

api_key=schema-fuzz-key
api_secret=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
start_server fuzz || exit 1
token=$("$binary" token --api-key "$api_key" --api-secret "$api_secret")

# The credentials fill the spec's own security schemes (a server token, the API key in the query),
# so the ignored_auth check can take them away again and expect a 401.
cat >"$work/schemathesis.toml" <<EOF
[auth.openapi.JWT]
api_key = "$token"
[auth.openapi.api_key]
api_key = "$api_key"
[auth.openapi.stream-auth-type]
api_key = "jwt"
EOF

echo "Schema fuzzing (schemathesis $pin), $examples examples per operation, seed $seed"
status=0
(cd "$work" && PYTHONPATH="$root/Tests/Fuzz" SCHEMATHESIS_HOOKS=schemathesis_hooks timeout 20m "$venv/bin/schemathesis" --config-file "$work/schemathesis.toml" --no-color \
  run "$base_url/openapi.yaml" --url "$base_url" --checks all --exclude-checks positive_data_acceptance \
  --max-examples "$examples" --seed "$seed" --generation-database none \
  --workers 1 --request-timeout 30 \
  --report json --report-json-path "$work/report.json") | tee "$work/fuzz.log" || status=$?

read -r operations failures < <("$venv/bin/python" - "$work/report.json" <<'EOF' || echo "0 1"
import json, sys
report = json.load(open(sys.argv[1]))
tested = (report.get("operations") or {}).get("tested", 0)
failures = sum(group["count"] for group in report["failures"]) + sum(e["count"] for e in report["errors"])
print(tested, failures)
EOF
)
if [ "$status" -ne 0 ] && [ "$failures" -eq 0 ]; then failures=1; fi
if [ "$failures" -gt 0 ]; then
  echo "--- last lines of the server log:"
  tail -n 40 "$server_log"
fi
echo "Schema fuzzing (schemathesis $pin): $operations operations, $failures failures"
[ "$failures" -eq 0 ]
