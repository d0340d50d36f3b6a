#!/usr/bin/env bash
# The images targets, each against a baseline measured in the same run:
#   1. resizing a 4000×3000 JPEG to 400 px through the API: at most 1.3× vipsthumbnail on the same file;
#   2. a cached variant served as fast as a stored object of the same size (wrk, c=32): ratio ≥ 0.9;
#   3. 8 concurrent resizes of 16 MP sources: the server's peak RSS under 512 MB;
#   4. the upload of a 12 MP phone-like JPEG (a 60 KB EXIF with a GPS tag) with its metadata
#      stripped: at most 1.1x the same upload with stripping off;
#   5. GetOG of a page on loopback, once cached (wrk, c=32): at least 0.9x a signed GET of a stored
#      object of about the same size as its answer.
# Usage: bench/images.sh [path/to/feeds] [results.json]   (run under scripts/with-test-postgres.sh)
set -euo pipefail

bin=${1:-.build/release/feeds}
out=${2:-}
: "${FEEDS_TEST_DATABASE_URL:?run me under scripts/with-test-postgres.sh}"
for tool in vips vipsthumbnail wrk curl; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: run scripts/install-deps.sh bench" >&2; exit 1; }
done
# GetOG fetches from the page server on loopback below.
export FEEDS_OG_ALLOWED_HOSTS=127.0.0.1
source "$(dirname "$0")/serve.sh"
upload() { # file [endpoint] -> the signed URL
  curl -sf -H 'Stream-Auth-Type: jwt' -H "Authorization: $token" -F "file=@$1" \
    "http://127.0.0.1:$port/api/v2/uploads/${2:-image}?api_key=$key" | python3 -c 'import json,sys; print(json.load(sys.stdin)["file"])'
}
now() { date +%s.%N; }
calc() { python3 -c "print($1)"; }

# Photo-like sources: noise does not compress, so the decoder has real work.
vips gaussnoise "$dir/noise.v" 4000 3000 --mean 128 --sigma 40
vips colourspace "$dir/noise.v" "$dir/grey.v" b-w
vips bandjoin "$dir/grey.v $dir/grey.v $dir/grey.v" "$dir/rgb.v"
vips cast "$dir/rgb.v" "$dir/photo.v" uchar
vips copy "$dir/photo.v" "$dir/photo.jpg[Q=90]"
vips gaussnoise "$dir/big.v" 4900 3265 --mean 128 --sigma 40
vips cast "$dir/big.v" "$dir/big.jpg[Q=90]" uchar

runs=10
url=$(upload "$dir/photo.jpg")
# Warm both up once, so neither pays for loading libraries.
vipsthumbnail "$dir/photo.jpg" --size 400x -o "$dir/warm.jpg"
curl -sf -o /dev/null "$url&w=399"
start=$(now)
for i in $(seq 1 $runs); do vipsthumbnail "$dir/photo.jpg" --size 400x -o "$dir/t$i.jpg[Q=85,strip]"; done
vips_s=$(calc "($(now) - $start) / $runs")
start=$(now)
# A new width each time: every request is a real resize, never a cache hit.
for i in $(seq 1 $runs); do curl -sf -o /dev/null "$url&w=$((400 + i))"; done
api_s=$(calc "($(now) - $start) / $runs")
resize_ratio=$(calc "$api_s / $vips_s")

# A cached variant against a stored object of the very same bytes.
curl -sf -o "$dir/variant.jpg" "$url&w=400"
plain=$(upload "$dir/variant.jpg" file)
wrk_rps() { wrk -t2 -c32 -d2s "$1" | awk '/Requests\/sec/ {print $2}'; }
# Taken in turns, five rounds each, so that what else runs on the machine weighs on both alike.
stored_runs=() variant_runs=()
for _ in 1 2 3 4 5; do
  stored_runs+=("$(wrk_rps "$plain")")
  variant_runs+=("$(wrk_rps "$url&w=400")")
done
median5() { printf '%s\n' "$@" | sort -g | sed -n 3p; }
stored_rps=$(median5 "${stored_runs[@]}")
variant_rps=$(median5 "${variant_runs[@]}")
cached_ratio=$(calc "$variant_rps / $stored_rps")

# GetOG of a page with Open Graph tags and an image, on loopback, once cached, against a signed GET
# of a stored object about as large as GetOG's answer (each an authenticated call or a signed URL).
mkdir -p "$dir/site"
cp "$dir/variant.jpg" "$dir/site/sea.jpg"
cat >"$dir/site/page.html" <<'HTML'
<html><head><meta property="og:title" content="Sea &amp; Sky"><meta property="og:description" content="Waves, all day">
<meta property="og:image" content="/sea.jpg"><meta property="og:site_name" content="Beach News"></head><body></body></html>
HTML
site_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server "$site_port" --bind 127.0.0.1 --directory "$dir/site" >/dev/null 2>&1 &
site=$!
trap 'kill $site 2>/dev/null || true; kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$dir"' EXIT
for _ in $(seq 1 50); do curl -sf -o /dev/null "http://127.0.0.1:$site_port/page.html" && break; sleep 0.1; done
og_url="http://127.0.0.1:$port/api/v2/og?api_key=$key&url=http%3A%2F%2F127.0.0.1%3A$site_port%2Fpage.html"
og_bytes=$(curl -sf -H 'Stream-Auth-Type: jwt' -H "Authorization: $token" "$og_url" | wc -c)
head -c "$og_bytes" /dev/urandom >"$dir/answer.bin"
small=$(upload "$dir/answer.bin" file)
og_runs=() small_runs=()
for _ in 1 2 3 4 5; do
  small_runs+=("$(wrk_rps "$small")")
  og_runs+=("$(wrk -t2 -c32 -d2s -H 'Stream-Auth-Type: jwt' -H "Authorization: $token" "$og_url" | awk '/Requests\/sec/ {print $2}')")
done
small_rps=$(median5 "${small_runs[@]}")
og_rps=$(median5 "${og_runs[@]}")
og_ratio=$(calc "$og_rps / $small_rps")

# A phone's 12 MP JPEG: the photo with an EXIF segment of 60 KB (a GPS tag and a maker note's
# worth of bytes) after its SOI, uploaded with the app's stripping on and off, in turns.
python3 - "$dir/photo.jpg" "$dir/phone.jpg" <<'PY'
import struct, sys
jpeg = open(sys.argv[1], "rb").read()
# TIFF, little-endian: IFD0 with one entry, the GPS IFD pointer; the GPS IFD with GPSLatitudeRef.
ifd0 = struct.pack("<H", 1) + struct.pack("<HHII", 0x8825, 4, 1, 26) + struct.pack("<I", 0)
gps = struct.pack("<H", 1) + struct.pack("<HHI4s", 1, 2, 2, b"N\0\0\0") + struct.pack("<I", 0)
tiff = b"II*\0" + struct.pack("<I", 8) + ifd0 + gps
tiff += b"\0" * (60_000 - len(tiff))
app1 = b"Exif\0\0" + tiff
open(sys.argv[2], "wb").write(jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:])
PY
admin=$("$bin" token "${common[@]}")
stripping() { # true|false
  curl -sf -X PATCH -H 'Stream-Auth-Type: jwt' -H "Authorization: $admin" -H 'Content-Type: application/json' \
    -d "{\"strip_image_metadata\":$1}" "http://127.0.0.1:$port/api/v2/app?api_key=$key" >/dev/null
}
image_upload() { curl -sf -o /dev/null -w '%{time_total}\n' -H 'Stream-Auth-Type: jwt' -H "Authorization: $token" \
  -F "file=@$dir/phone.jpg" "http://127.0.0.1:$port/api/v2/uploads/image?api_key=$key"; }
stripped_runs=() kept_runs=()
for _ in $(seq 1 9); do
  stripping true
  stripped_runs+=("$(image_upload)")
  stripping false
  kept_runs+=("$(image_upload)")
done
stripping true
median9() { printf '%s\n' "$@" | sort -g | sed -n 5p; }
stripped_s=$(median9 "${stripped_runs[@]}")
kept_s=$(median9 "${kept_runs[@]}")
strip_ratio=$(calc "$stripped_s / $kept_s")

# Eight resizes of 16 MP sources at once.
big=$(upload "$dir/big.jpg")
before=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
pids=()
for i in $(seq 1 8); do curl -sf -o /dev/null "$big&w=$((1000 + i))&h=$((1000 + i))&resize=crop" & pids+=($!); done
for pid in "${pids[@]}"; do wait "$pid"; done
peak=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
peak_mb=$((peak / 1024))

printf '%-44s %10s %10s %8s %s\n' measure feeds baseline ratio target
printf '%-44s %9.3fs %9.3fs %7.2fx %s\n' "4000x3000 JPEG to 400 px (mean of $runs)" "$api_s" "$vips_s" "$resize_ratio" "<= 1.3x vipsthumbnail"
printf '%-44s %10.0f %10.0f %7.2fx %s\n' "cached variant vs stored object, req/s c=32" "$variant_rps" "$stored_rps" "$cached_ratio" ">= 0.9x"
printf '%-44s %10.0f %10.0f %7.2fx %s\n' "GetOG cached vs stored $og_bytes B, req/s c=32" "$og_rps" "$small_rps" "$og_ratio" ">= 0.9x"
printf '%-44s %9sMB %10s %8s %s\n' "8 concurrent 16 MP resizes, peak RSS" "$peak_mb" "-" "-" "< 512 MB (before: $((before / 1024)) MB)"
printf '%-44s %9.3fs %9.3fs %7.2fx %s\n' "12 MP phone JPEG upload, metadata stripped" "$stripped_s" "$kept_s" "$strip_ratio" "<= 1.1x kept (median of 9)"
if [ -n "$out" ]; then
  cat >"$out" <<JSON
{"resize_seconds": $api_s, "vipsthumbnail_seconds": $vips_s, "resize_ratio": $resize_ratio,
 "cached_variant_rps": $variant_rps, "stored_object_rps": $stored_rps, "cached_ratio": $cached_ratio,
 "og_rps": $og_rps, "og_stored_rps": $small_rps, "og_bytes": $og_bytes, "og_ratio": $og_ratio,
 "concurrent_resize_peak_rss_mb": $peak_mb,
 "stripped_upload_seconds": $stripped_s, "kept_upload_seconds": $kept_s, "strip_ratio": $strip_ratio}
JSON
fi
