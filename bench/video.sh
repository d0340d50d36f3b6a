#!/usr/bin/env bash
# The video target, against a baseline measured in the same run: what a 100 MB 1080p H.264 MP4
# upload costs the server over a plain file of the same size (its probe and its poster, made
# with the upload) is at most 1.2x ffprobe and ffmpeg doing the same from the command line, and
# the server's peak RSS grows by less than 64 MB over five such uploads.
# Usage: bench/video.sh [path/to/feeds] [results.json]   (run under scripts/with-test-postgres.sh)
set -euo pipefail

bin=${1:-.build/release/feeds}
out=${2:-}
: "${FEEDS_TEST_DATABASE_URL:?run me under scripts/with-test-postgres.sh}"
for tool in ffmpeg ffprobe curl; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: run scripts/install-deps.sh" >&2; exit 1; }
done
source "$(dirname "$0")/serve.sh"
calc() { python3 -c "print($1)"; }
median5() { printf '%s\n' "$@" | sort -g | sed -n 3p; }
upload() { # file -> seconds; fails on anything but 201
  local status time
  read -r status time < <(curl -s -o "$dir/upload.json" -w '%{http_code} %{time_total}\n' -H 'Stream-Auth-Type: jwt' \
    -H "Authorization: $token" -F "file=@$1" "http://127.0.0.1:$port/api/v2/uploads/file?api_key=$key")
  [ "$status" = 201 ] || { cat "$dir/upload.json" >&2; exit 1; }
  echo "$time"
}

# 40 s of 1080p at a constant 20 Mb/s: 100 MB.
ffmpeg -nostdin -v error -y -f lavfi -i testsrc2=size=1920x1080:rate=30 -t 40 -c:v libx264 -preset ultrafast \
  -b:v 20M -minrate 20M -maxrate 20M -bufsize 20M -pix_fmt yuv420p "$dir/video.mp4"
head -c "$(stat -c %s "$dir/video.mp4")" /dev/urandom >"$dir/plain.bin"

# The command line: the probe and the poster as the server runs them (FeedsMedia/AV/AVTools.swift).
cli() {
  local start
  start=$(date +%s.%N)
  ffprobe -v error -protocol_whitelist file -f mov -show_entries \
    format=duration:stream=codec_type,codec_name,width,height:stream_disposition=attached_pic:stream_side_data=rotation \
    -of json "file:$dir/video.mp4" >/dev/null
  # The poster takes the frame with what that probe found.
  ffmpeg -nostdin -v error -threads 1 -filter_threads 1 -protocol_whitelist file -ss 1 -f mov -i "file:$dir/video.mp4" \
    -map 0:v:0 -frames:v 1 -an -sn -dn -vf "scale=w='min(1920,iw)':h='min(1920,ih)':force_original_aspect_ratio=decrease" \
    -map_metadata -1 -fflags +bitexact -flags:v +bitexact -f image2 -update 1 -c:v mjpeg -q:v 3 -y "file:$dir/poster.jpg"
  calc "$(date +%s.%N) - $start"
}

cli >/dev/null
upload "$dir/plain.bin" >/dev/null
before=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
video_runs=() plain_runs=() cli_runs=()
# In turns, five rounds, medians; each transfer starts with nothing dirty in the page cache.
for _ in 1 2 3 4 5; do
  sync
  video_runs+=("$(upload "$dir/video.mp4")")
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r.get("thumb_url"), r' "$dir/upload.json"
  sync
  plain_runs+=("$(upload "$dir/plain.bin")")
  cli_runs+=("$(cli)")
done
peak=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
video_s=$(median5 "${video_runs[@]}")
plain_s=$(median5 "${plain_runs[@]}")
cli_s=$(median5 "${cli_runs[@]}")
added_s=$(calc "max(0.0, $video_s - $plain_s)")
ratio=$(calc "$added_s / $cli_s")
growth_mb=$(((peak - before) / 1024))
echo "video uploads: ${video_runs[*]} s; plain: ${plain_runs[*]} s; command line: ${cli_runs[*]} s"
printf '%-44s %9.3fs %9.3fs %7.2fx %s\n' "100 MB 1080p MP4: probe and poster" "$added_s" "$cli_s" "$ratio" "<= 1.2x ffprobe + ffmpeg"
printf '%-44s %9sMB %10s %8s %s\n' "five such uploads, peak RSS growth" "$growth_mb" "-" "-" "< 64 MB"
if [ -n "$out" ]; then
  cat >"$out" <<JSON
{"video_upload_seconds": $video_s, "plain_upload_seconds": $plain_s, "added_seconds": $added_s,
 "command_line_seconds": $cli_s, "ratio": $ratio, "peak_rss_growth_mb": $growth_mb}
JSON
fi
