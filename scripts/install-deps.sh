#!/usr/bin/env bash
# Installs what the server and the tests need from Debian, when it is missing.
set -euo pipefail

need=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || need+=(postgresql)
command -v curl >/dev/null 2>&1 || need+=(curl)
# scripts/sdk-conformance.sh puts Stream's Python SDK in a venv (Debian splits venv off python3).
python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
# FeedsMedia: libmagic sniffs types, libvips reads image headers (SwiftPM finds vips through pkg-config).
[ -f /usr/include/magic.h ] || need+=(libmagic-dev)
[ -f /usr/include/vips/vips.h ] || need+=(libvips-dev)
# FeedsMedia/AV: ffprobe describes audio and video uploads, ffmpeg takes posters and waveforms.
command -v ffprobe >/dev/null 2>&1 || need+=(ffmpeg)
# scripts/admin-browser.sh drives the admin console in headless Chromium (Selenium goes in a venv).
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
# `install-deps.sh bench`: what make bench measures against (nginx with its DAV module, wrk,
# vipsthumbnail, pgbench), and perf for profiling the gaps it finds.
if [ "${1:-}" = bench ]; then
  shift
  command -v nginx >/dev/null 2>&1 || need+=(nginx)
  command -v wrk >/dev/null 2>&1 || need+=(wrk)
  command -v vipsthumbnail >/dev/null 2>&1 || need+=(libvips-tools)
  command -v pgbench >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/pgbench >/dev/null 2>&1 || need+=(postgresql-contrib)
  command -v perf >/dev/null 2>&1 || need+=(linux-perf)
fi
for extra in "$@"; do need+=("$extra"); done

# The tests' S3-compatible store (scripts/with-test-s3.sh): moto's server, and boto3 to set it up.
if ! python3 -c 'import moto.server, boto3' 2>/dev/null; then
  python3 -m pip install --quiet 'moto[server]' boto3 \
    || python3 -m pip install --quiet --break-system-packages 'moto[server]' boto3
fi

[ ${#need[@]} -eq 0 ] && exit 0
echo "Installing: ${need[*]}"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
# Debian's nginx starts a server of its own on port 80; the bench runs private ones.
if [ -x /usr/sbin/nginx ] && [ -f /run/nginx.pid ]; then $sudo /usr/sbin/nginx -s stop 2>/dev/null || true; fi
# Debian's package starts a cluster of its own; ours are private, so leave the port free.
if command -v pg_ctlcluster >/dev/null 2>&1; then
  for conf in /etc/postgresql/*/main; do
    [ -d "$conf" ] || continue
    v=$(basename "$(dirname "$conf")")
    $sudo pg_ctlcluster "$v" main stop 2>/dev/null || true
  done
fi
