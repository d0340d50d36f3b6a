#!/usr/bin/env bash
# Runs the Swift tests (`swift test --skip-build "$@"`) under a watchdog, so that a hung suite
# fails within FEEDS_TEST_MINUTES (30 by default; a whole run takes minutes) instead of using up
# CI's time, naming the tests still running.
#
# The whole output goes to .build/swift-tests.log; what is printed leaves out the lines for each
# test started and passed (two thousand of them), keeping failures, logs and the summary line.
set -uo pipefail
cd "$(dirname "$0")/.."

minutes=${FEEDS_TEST_MINUTES:-30}
log=.build/swift-tests.log
mkdir -p .build

timeout --signal=INT --kill-after=30 "${minutes}m" stdbuf -oL -eL "${SWIFT:-swift}" test --skip-build "$@" 2>&1 |
  tee "$log" | awk '/^(◇|✔) (Test|Suite) / && !/^✔ Test run / { next } / started\.$/ { next } { print; fflush() }'
status=${PIPESTATUS[0]}

if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "The Swift tests did not finish within $minutes minutes (whole output: $log). Started and not finished:"
  # Swift Testing prints "◇ Test NAME started." and "✔/✘ Test NAME [with N test cases] passed/failed after …".
  sed -n 's/^◇ Test \(.*\) started\.$/\1/p' "$log" | grep -v -E '^(case .*|run)$' | sort -u >"$log.started"
  sed -n 's/^[✔✘] Test \(.*\) \(passed\|failed\) after .*$/\1/p' "$log" | sed 's/ with [0-9]* test cases\{0,1\}$//' |
    sort -u >"$log.ended"
  comm -23 "$log.started" "$log.ended" | sed 's/^/  /'
  rm -f "$log.started" "$log.ended"
fi
exit "$status"
