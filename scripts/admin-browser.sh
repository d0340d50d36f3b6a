#!/usr/bin/env bash
# The admin console in headless Chromium (Debian's chromium and chromium-driver, driven by
# Selenium from PyPI in a venv): Tests/Admin/admin_browser.py against a built `feeds serve` on a
# fresh database (scripts/lib/test-server.sh). A screenshot of every page goes to
# .build/admin-screenshots/, so a failure can be looked at. Prints one result line for CI; exits
# non-zero when a step failed.
#   scripts/with-test-postgres.sh scripts/admin-browser.sh
# FEEDS_BINARY runs another build of the server (default .build/debug/feeds).
set -euo pipefail

pin=4.50.0
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.build/admin-venv"
binary=${FEEDS_BINARY:-"$root/.build/debug/feeds"}
program="$root/Tests/Admin/admin_browser.py"
screenshots="$root/.build/admin-screenshots"
. "$root/scripts/lib/test-server.sh"

for tool in chromium chromedriver; do
  command -v "$tool" >/dev/null 2>&1 || { echo "no $tool: run scripts/install-deps.sh" >&2; exit 1; }
done
test_server_setup admin-browser
python_venv "$venv" "selenium==$pin"

api_key=admin-browser-key
api_secret=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
rm -rf "$screenshots"
mkdir -p "$screenshots"

echo "Admin console in Chromium"
counts="$work/counts"
# The steps' webhook receiver is on loopback, which a hook may point at only when allowed.
if start_server console FEEDS_WEBHOOK_ALLOWED_HOSTS=127.0.0.1 FEEDS_WEBHOOK_MAX_BACKOFF=1; then
  FEEDS_ADMIN_BASE_URL="$base_url" FEEDS_ADMIN_API_KEY="$api_key" FEEDS_ADMIN_API_SECRET="$api_secret" \
    FEEDS_ADMIN_SCREENSHOTS="$screenshots" FEEDS_ADMIN_COUNTS="$counts" \
    PYTHONDONTWRITEBYTECODE=1 timeout 15m "$venv/bin/python" "$program" | tee "$work/steps" || true
fi
stop_server
read -r passed failed <<<"$(counts_of "$counts" console)"
if [ "$failed" -gt 0 ]; then
  echo "--- screenshots: $screenshots"
  echo "--- last lines of the server log:"
  tail -n 40 "$server_log"
fi
echo "Admin browser test (Chromium, selenium $pin): $passed passed, $failed failed"
[ "$failed" -eq 0 ]
