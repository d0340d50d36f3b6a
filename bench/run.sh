#!/usr/bin/env bash
# make bench: the release server against the machine's own limits, measured in the same run.
# Starts the server and nginx as private processes on free ports (PostgreSQL comes from
# scripts/with-test-postgres.sh, the replicated pair from scripts/with-test-replica.sh), runs each measure and its baseline, prints one table of ratios,
# writes bench/results.json, and stops everything again, even on failure.
# Usage: bench/run.sh [path/to/feeds]   Env: BENCH_SECONDS (default 10) per measure.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/limits.sh"
bin=$(realpath "${1:-.build/release/feeds}")
: "${FEEDS_TEST_DATABASE_URL:?run me under scripts/with-test-postgres.sh}"
: "${FEEDS_TEST_REPLICATED_DATABASE_URL:?run me under scripts/with-test-replica.sh too}"
here=$(cd "$(dirname "$0")" && pwd)
seconds=${BENCH_SECONDS:-10}
dir=$(mktemp -d /tmp/feeds-bench.XXXXXX)
chmod 755 "$dir"
key=bench-key
secret=bench-secret-0123456789abcdef0123456789abcdef
server="" nginx=""
load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)

cleanup() {
  [ -n "$server" ] && { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
  [ -n "$nginx" ] && { kill "$nginx" 2>/dev/null || true; wait "$nginx" 2>/dev/null || true; }
  rm -rf "$dir"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
pgbench=$(command -v pgbench || echo "$pg_bin/pgbench")
psql=$(command -v psql || echo "$pg_bin/psql")

# The server, on its own database of the private cluster.
"$psql" -q "$FEEDS_TEST_DATABASE_URL" -c 'CREATE DATABASE bench'
db=${FEEDS_TEST_DATABASE_URL%/*}/bench
port=$(free_port)
url=http://127.0.0.1:$port
common=(--api-key "$key" --api-secret "$secret" --data-dir "$dir/data" --database-url "$db")
"$bin" serve "${common[@]}" --port "$port" --ws-port 0 --log-level warning >"$dir/server.log" 2>&1 &
server=$!
for _ in $(seq 1 200); do curl -sf "$url/readyz" >/dev/null && break; sleep 0.1; done
curl -sf "$url/readyz" >/dev/null || { cat "$dir/server.log"; exit 1; }

# nginx, serving the same bytes and taking DAV PUTs.
nginx_port=$(free_port)
mkdir -p "$dir/nginx/www/dav" "$dir/nginx/client-temp"
sed -e "s|@DIR@|$dir/nginx|g" -e "s|@PORT@|$nginx_port|g" "$here/nginx.conf" >"$dir/nginx/nginx.conf"
nginx -p "$dir/nginx" -c "$dir/nginx/nginx.conf" 2>"$dir/nginx/stderr.log" &
nginx=$!
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$nginx_port/" && break; sleep 0.1; done

# The create and the page are driven by wrk, as pgbench drives PostgreSQL: a client in C, light
# next to the server on the same two cores. `feeds loadtest` (AsyncHTTPClient) spent 0.2 ms of CPU
# per create, eight times what wrk (0.024 ms) and pgbench (0.027 ms) spend on a request; it runs
# once below, for its check that every acknowledged create was stored.
for i in $(seq 0 99); do "$bin" token --user "loadtest-$i" "${common[@]}"; done >"$dir/tokens"
wrk_run() { # scenario, name, seconds; writes $dir/<name>.json, shaped as a `feeds loadtest --json` report
  SCENARIO=$1 TOKENS=${TOKENS_FILE:-$dir/tokens} TARGETS=${TARGETS_FILE:-} API_KEY=$key REPORT=$dir/$2.json WRK_SCRIPTS=$here/wrk \
    wrk -t "${WRK_THREADS:-2}" -c "${WRK_CONNECTIONS:-32}" -d "${3}s" --timeout 10s -s "$here/wrk/$1.lua" "$url" >"$dir/$2.log" 2>&1 || { cat "$dir/$2.log"; exit 1; }
  python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["errors"] > 0)' "$dir/$2.json" \
    || { echo "wrk $1: requests failed"; cat "$dir/$2.log" "$dir/$2.json"; exit 1; }
}
loadtest() { # scenario, name, seconds; prints the table, keeps the JSON report
  "$bin" loadtest --url "$url" --api-key "$key" --api-secret "$secret" --scenario "$1" --concurrency 32 \
    --duration "$3" --warmup 2 --users 100 --no-progress --json "$dir/$2.json"
}
pgbench_tps() { # script (in bench/pgbench, or a path), seconds; prints tps, appends its p99 (ms) to <script>.p99
  local script=$1 log=$dir/$(basename "$1").log prefix=$dir/pglog-$(basename "$1")
  [ -f "$script" ] || script=$here/pgbench/$1
  rm -f "$prefix".*
  # -l logs each transaction's latency (µs, the third field), for the baseline's own p99.
  # The server's own session settings (jit off, Application+build.swift), so that both run the same plan.
  PGOPTIONS='-c jit=off' "$pgbench" -n -M extended -c 32 -j 2 -T "$2" -l --log-prefix="$prefix" -f "$script" "$db" >"$log" 2>&1 ||
    { cat "$log"; exit 1; }
  cat "$prefix".* | awk '{print $3}' | sort -n |
    awk '{v[NR] = $1} END {i = int(NR * 0.99); if (i < 1) i = 1; printf "%.1f\n", v[i] / 1000}' >>"$dir/$(basename "$1").p99"
  awk '/^tps = / {print $3; exit}' "$log"
}
# The server and pgbench in turns, three rounds of half the time each: with one run each, a burst
# of other work on this shared machine during one side's run moved the ratio by a third. Keeps the
# report of the server's median round as $dir/<name>.json; sets pg_median to pgbench's median tps.
in_turns() { # scenario, name, pgbench script
  local round_seconds=$(( (seconds + 1) / 2 )) tps=() i
  wrk_run "$1" "$2-warmup" 2
  for i in 1 2 3; do
    wrk_run "$1" "$2-$i" "$round_seconds"
    tps+=("$(pgbench_tps "$3" "$round_seconds")")
  done
  cp "$(python3 "$here/median_report.py" "$dir/$2"-[123].json)" "$dir/$2.json"
  pg_median=$(printf '%s\n' "${tps[@]}" | sort -g | sed -n 2p)
  pg_p99=$(tail -n 3 "$dir/$(basename "$3").p99" | sort -g | sed -n 2p)
  echo "pgbench: ${tps[*]} tps (median $pg_median, p99 median $pg_p99 ms); the server's median round is in the table"
}
wrk_rps() { # url, seconds; prints requests/s, and fails on any non-2xx reply
  wrk -t 2 -c 32 -d "${2}s" "$1" >"$dir/wrk.log" 2>&1
  if grep -q 'Non-2xx' "$dir/wrk.log"; then cat "$dir/wrk.log"; exit 1; fi
  awk '/^Requests\/sec:/ {print $2}' "$dir/wrk.log"
}

echo "== create activity, c=32"
in_turns create-activity create create-activity.sql
create_pg=$pg_median create_pg_p99=$pg_p99
# Every create wrk saw acknowledged (2xx) must be stored: wrk keeps no ids, so this counts them.
acknowledged=$(python3 -c 'import json,sys; print(sum(json.load(open(p))["ok"] for p in sys.argv[1:]))' "$dir"/create-{warmup,1,2,3}.json)
stored=$("$psql" -tA "$db" -c "SELECT count(*) FROM activities WHERE text LIKE 'wrk-%'")
python3 - "$dir/create.json" "$(( acknowledged > stored ? acknowledged - stored : 0 ))" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
report["lost"] = int(sys.argv[2])
json.dump(report, open(sys.argv[1], "w"))
PY
echo "acknowledged by the server: $acknowledged creates; stored: $stored"

echo "== create activity, c=32, through feeds loadtest (every acknowledged create read back)"
loadtest create-activity create-loadtest "$seconds"

echo "== add a reaction, c=32"
# The targets: 10,000 of the activities the creates above stored, numbered for pgbench.
"$psql" -q "$db" -c "CREATE TABLE bench_reaction_targets AS
  SELECT row_number() OVER (ORDER BY id) AS n, id FROM (SELECT id FROM activities ORDER BY created_at DESC LIMIT 10000) x;
  CREATE UNIQUE INDEX ON bench_reaction_targets (n)"
"$psql" -tA "$db" -c "SELECT id FROM bench_reaction_targets ORDER BY n" >"$dir/reaction-targets"
TARGETS_FILE=$dir/reaction-targets in_turns add-reaction reaction add-reaction.sql
reaction_pg=$pg_median reaction_pg_p99=$pg_p99

echo "== read a feed page of 25, c=32"
# Steady state, as autovacuum keeps it: right after the bursts of inserts above the statistics
# still say the tables are small, and the feed page is planned as a scan of every activity.
"$psql" -q "$db" -c 'VACUUM ANALYZE'
in_turns read-feed read read-feed.sql
read_pg=$pg_median read_pg_p99=$pg_p99

echo "== read a feed page of 25 for readers who each blocked 1,000 users, c=32"
# 990 users who never wrote here and ten of the other readers, whose reactions are on the pages:
# the page's counts and newest reactions leave their share out (the same SELECT for pgbench).
"$psql" -q "$db" -c "INSERT INTO users (id) SELECT 'blocked-' || n FROM generate_series(1, 990) n" \
  -c "INSERT INTO user_blocks (user_id, blocked_user_id) SELECT 'loadtest-' || u, 'blocked-' || n
      FROM generate_series(0, 99) u, generate_series(1, 990) n" \
  -c "INSERT INTO user_blocks (user_id, blocked_user_id) SELECT 'loadtest-' || u, 'loadtest-' || (u + k) % 100
      FROM generate_series(0, 99) u, generate_series(1, 10) k" -c 'VACUUM ANALYZE user_blocks'
in_turns read-feed blocked read-feed.sql
blocked_pg=$pg_median blocked_pg_p99=$pg_p99
# The rows below react as these readers, to each other's activities.
"$psql" -q "$db" -c 'DELETE FROM user_blocks' -c 'VACUUM ANALYZE user_blocks'

echo "== a reaction that notifies the activity's author, against a plain one, c=32"
# In turns, three rounds each: the cost of create_notification_activity is their ratio.
round_seconds=$(( (seconds + 1) / 2 ))
NOTIFY=1 TARGETS_FILE=$dir/reaction-targets wrk_run add-reaction notify-warmup 2
for i in 1 2 3; do
  TARGETS_FILE=$dir/reaction-targets wrk_run add-reaction plain-$i "$round_seconds"
  NOTIFY=1 TARGETS_FILE=$dir/reaction-targets wrk_run add-reaction notify-$i "$round_seconds"
done
cp "$(python3 "$here/median_report.py" "$dir"/plain-[123].json)" "$dir/reaction-plain.json"
cp "$(python3 "$here/median_report.py" "$dir"/notify-[123].json)" "$dir/reaction-notify.json"

echo "== notification feeds: 4 of 100,000 notifications (bench/notification-data.sql)"
"$psql" -q "$db" -f "$here/notification-data.sql"
for i in 0 1 2 3; do "$bin" token --user "bell-$i" "${common[@]}"; done >"$dir/bell-tokens"
echo "== read a notification page of 25 groups, c=32"
TOKENS_FILE=$dir/bell-tokens in_turns read-bell bell read-bell.sql
bell_pg=$pg_median bell_pg_p99=$pg_p99
echo "== mark_all_read on 100,000 notifications, against on 10 (one connection)"
"$bin" token --user bell-0 "${common[@]}" >"$dir/bell-big-token"
"$bin" token --user bell-small "${common[@]}" >"$dir/bell-small-token"
for i in 1 2 3; do
  BELL=bell-0 TOKENS_FILE=$dir/bell-big-token WRK_THREADS=1 WRK_CONNECTIONS=1 wrk_run mark-all-read mark-big-$i "$round_seconds"
  BELL=bell-small TOKENS_FILE=$dir/bell-small-token WRK_THREADS=1 WRK_CONNECTIONS=1 wrk_run mark-all-read mark-small-$i "$round_seconds"
done
cp "$(python3 "$here/median_report.py" "$dir"/mark-big-[123].json)" "$dir/mark-big.json"
cp "$(python3 "$here/median_report.py" "$dir"/mark-small-[123].json)" "$dir/mark-small.json"

echo "== cast a vote, c=32: 64 voters on one poll"
# One poll that takes a vote a voter, on one activity, made through the API by its author; its
# options get the ids 1…4 (UpdatePoll names them), which pgbench's script compares as numbers.
api() { # method, path, token, body
  curl -sf -X "$1" -H 'Stream-Auth-Type: jwt' -H "Authorization: $3" -H 'Content-Type: application/json' -d "$4" \
    "$url/api/v2/$2?api_key=$key" >/dev/null || { echo "$1 $2 failed"; exit 1; }
}
pollster=$("$bin" token --user pollster "${common[@]}")
api POST polls "$pollster" '{"id":"bench-poll","name":"Which one?","enforce_unique_vote":true}'
api PUT polls "$pollster" '{"id":"bench-poll","name":"Which one?","enforce_unique_vote":true,"options":[{"id":"1","text":"one"},{"id":"2","text":"two"},{"id":"3","text":"three"},{"id":"4","text":"four"}]}'
api POST feeds/activities "$pollster" \
  '{"id":"poll-bench-activity","type":"post","feeds":["user:pollster"],"text":"vote","poll_id":"bench-poll"}'
for i in $(seq 0 63); do "$bin" token --user "voter-$i" "${common[@]}"; done >"$dir/voter-tokens"
TOKENS_FILE=$dir/voter-tokens in_turns cast-vote vote cast-vote.sql
vote_pg=$pg_median vote_pg_p99=$pg_p99
# Every vote ran with the poll's row locked: its counts must be the votes stored, exactly.
miscounted=$("$psql" -tA "$db" -c "SELECT (SELECT count(*) FROM polls p WHERE id = 'bench-poll'
    AND vote_count <> (SELECT count(*) FROM poll_votes WHERE poll_id = p.id AND option_id IS NOT NULL))
  + (SELECT count(*) FROM poll_options o WHERE poll_id = 'bench-poll'
    AND vote_count <> (SELECT count(*) FROM poll_votes WHERE poll_id = o.poll_id AND option_id = o.id))")
echo "votes stored: $("$psql" -tA "$db" -c "SELECT count(*) FROM poll_votes WHERE poll_id = 'bench-poll'"), counts: \
$("$psql" -tA "$db" -c "SELECT string_agg(id || '=' || vote_count, ' ' ORDER BY position) FROM poll_options WHERE poll_id = 'bench-poll'"); \
counts that differ from the votes: $miscounted"
python3 - "$dir/vote.json" "$miscounted" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
report["miscounted"] = int(sys.argv[2])
json.dump(report, open(sys.argv[1], "w"))
PY

echo "== read a page of 25 activities that each carry a poll, c=32"
"$psql" -q "$db" -f "$here/poll-data.sql"
for i in $(seq 0 15); do "$bin" token --user "pollpage-$i" "${common[@]}"; done >"$dir/pollpage-tokens"
TOKENS_FILE=$dir/pollpage-tokens in_turns read-polls polls read-polls.sql
polls_pg=$pg_median polls_pg_p99=$pg_p99

echo "== timelines: the follow graph of bench/timeline-data.sql"
"$psql" -q "$db" -f "$here/timeline-data.sql"
for i in $(seq 0 7); do "$bin" token --user "tl-$i" "${common[@]}"; done >"$dir/tl-tokens"
echo "== read a timeline page of 25 (1,000 feeds followed, 1,000,000 activities), c=32"
# The best single SQL for the page is the feed page's, on one of the eight readers' timelines.
sed -e 's/random(0, 99)/random(0, 7)/' -e 's/user\\x3aloadtest-/timeline\\x3atl-/g' -e "s/'loadtest-'/'tl-'/g" \
  "$here/pgbench/read-feed.sql" >"$dir/read-timeline.sql"
grep -q 'timeline.x3atl-' "$dir/read-timeline.sql" || { echo "read-timeline.sql was not made"; exit 1; }
TOKENS_FILE=$dir/tl-tokens in_turns read-timeline timeline "$dir/read-timeline.sql"
timeline_pg=$pg_median timeline_pg_p99=$pg_p99
echo "== a post by an author with 100,000 followers, and by one with none"
"$here/fanout.sh" "$url" "$key" "$db" "$("$bin" token --user tl-star "${common[@]}")" \
  "$("$bin" token --user tl-quiet "${common[@]}")" >"$dir/fanout.json"
cat "$dir/fanout.json"
echo "== timelines through feeds loadtest: reads and posts on a follow graph, every post found in every follower's timeline"
loadtest timeline timeline-loadtest "$seconds"

echo "== read a page of 25 through a popular view (1,000,000 activities), c=32"
# Reactions spread as popularity is (most activities few, some many); the view offers each
# reader the newest 1,000 of the week's activities with at least 5, ranked by decayed popularity.
"$psql" -q "$db" -c "UPDATE activities SET reaction_count = floor(40 * random() ^ 4)::int WHERE id LIKE 'tla-%'" \
  -c 'VACUUM ANALYZE activities'
curl -sf -H 'Stream-Auth-Type: jwt' -H "Authorization: $("$bin" token "${common[@]}")" -H 'Content-Type: application/json' \
  -d '{"id":"popular-bench","activity_selectors":[{"type":"popular"}],"ranking":{"type":"expression","score":"decay_linear(time) * popularity ^ 0.5"}}' \
  "$url/api/v2/feeds/feed_views?api_key=$key" >/dev/null
TOKENS_FILE=$dir/tl-tokens in_turns read-view view read-view.sql
view_pg=$pg_median view_pg_p99=$pg_p99

echo "== follow suggestions for a reader following 1,000 feeds (1,000,000 follows), c=32"
# The star's 100,000 fans each follow 8 more authors, chosen as popular ones are: the graph's
# follows pass a million, and the counts are set once for all.
"$psql" -q "$db" -c "INSERT INTO follows (source_fid, target_fid, status)
  SELECT DISTINCT 'timeline:tlfan-' || n, 'user:tl-' || floor(10000 * random() ^ 3 + k * 0)::int, 'accepted'
  FROM generate_series(1, 100000) n, generate_series(1, 8) k ON CONFLICT DO NOTHING" \
  -c "UPDATE feeds f SET follower_count = c.n FROM (SELECT target_fid, count(*) AS n FROM follows
      WHERE status = 'accepted' GROUP BY target_fid) c WHERE f.fid = c.target_fid AND f.follower_count <> c.n" \
  -c 'VACUUM ANALYZE follows' -c 'VACUUM ANALYZE feeds'
echo "follows: $("$psql" -tA "$db" -c 'SELECT count(*) FROM follows')"
TOKENS_FILE=$dir/tl-tokens in_turns read-suggestions suggestions read-suggestions.sql
suggestions_pg=$pg_median suggestions_pg_p99=$pg_p99

echo "== signed GET of a 10 KB object, c=32"
token=$("$bin" token --user bench "${common[@]}")
head -c 10240 /dev/urandom >"$dir/10k.bin"
cp "$dir/10k.bin" "$dir/nginx/www/10k.bin"
object=$(curl -sf -H 'Stream-Auth-Type: jwt' -H "Authorization: $token" -F "file=@$dir/10k.bin" \
  "$url/api/v2/uploads/file?api_key=$key" | python3 -c 'import json,sys; print(json.load(sys.stdin)["file"])')
# In turns, five rounds of a fifth of the time each, medians: one run each swung the ratio with
# whatever else the machine was doing at that moment.
feeds_runs=() nginx_runs=()
for _ in 1 2 3 4 5; do
  feeds_runs+=("$(wrk_rps "$object" $(( (seconds + 4) / 5 )))")
  nginx_runs+=("$(wrk_rps "http://127.0.0.1:$nginx_port/10k.bin" $(( (seconds + 4) / 5 )))")
done
median5() { printf '%s\n' "$@" | sort -g | sed -n 3p; }
get_feeds=$(median5 "${feeds_runs[@]}")
get_nginx=$(median5 "${nginx_runs[@]}")
echo "feeds: ${feeds_runs[*]} req/s, nginx: ${nginx_runs[*]} req/s (medians $get_feeds, $get_nginx)"

echo "== 100 MB upload (median of 5)"
head -c 100M /dev/urandom >"$dir/100m.bin"
hwm() { awk '/VmHWM/ {print $2}' "/proc/$server/status"; }
rss_before=$(hwm)
upload_times=() put_times=()
for i in 1 2 3 4 5; do
  # Each transfer starts with nothing dirty in the page cache: nginx does not flush its files,
  # and their writeback, due seconds later, fell on whichever transfer came next.
  sync
  read -r status time < <(curl -s -o "$dir/upload.json" -w '%{http_code} %{time_total}\n' -H 'Stream-Auth-Type: jwt' \
    -H "Authorization: $token" -F "file=@$dir/100m.bin" "$url/api/v2/uploads/file?api_key=$key")
  [ "$status" = 201 ] || { cat "$dir/upload.json"; exit 1; }
  upload_times+=("$time")
  sync
  read -r status time < <(curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -T "$dir/100m.bin" \
    "http://127.0.0.1:$nginx_port/dav/100m-$i.bin")
  [ "$status" = 201 ] || { echo "nginx PUT: HTTP $status"; cat "$dir/nginx/nginx-error.log"; exit 1; }
  put_times+=("$time")
done
rss_after=$(hwm)
upload_s=$(median5 "${upload_times[@]}")
put_s=$(median5 "${put_times[@]}")
rss_growth_mb=$(( (rss_after - rss_before) / 1024 ))
echo "feeds: ${upload_times[*]} s, nginx PUT: ${put_times[*]} s; peak RSS +${rss_growth_mb} MB"

echo "== a comment with a 1 MB photo (multipart) against an image upload of the same file (median of 9)"
vips gaussnoise "$dir/photo.v" 1400 1000 --mean 128 --sigma 40
vips cast "$dir/photo.v" "$dir/photo8.v" uchar
vips copy "$dir/photo8.v" "$dir/photo.jpg[Q=95]"
activity=$(curl -sf -H 'Stream-Auth-Type: jwt' -H "Authorization: $token" -H 'Content-Type: application/json' \
  -d '{"type":"post","feeds":["user:bench"],"text":"comment on me"}' "$url/api/v2/feeds/activities?api_key=$key" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["activity"]["id"])')
comment_times=() image_times=()
for i in $(seq 1 9); do
  read -r status time < <(curl -s -o "$dir/comment.json" -w '%{http_code} %{time_total}\n' -H 'Stream-Auth-Type: jwt' \
    -H "Authorization: $token" -F "comment={\"object_id\":\"$activity\",\"comment\":\"look $i\",\"attachment_uploads\":[{\"type\":\"image\",\"file\":\"photo\"}]};type=application/json" \
    -F "photo=@$dir/photo.jpg" "$url/api/v2/feeds/comments?api_key=$key")
  [ "$status" = 201 ] || { cat "$dir/comment.json"; exit 1; }
  comment_times+=("$time")
  read -r status time < <(curl -s -o "$dir/image.json" -w '%{http_code} %{time_total}\n' -H 'Stream-Auth-Type: jwt' \
    -H "Authorization: $token" -F "file=@$dir/photo.jpg" "$url/api/v2/uploads/image?api_key=$key")
  [ "$status" = 201 ] || { cat "$dir/image.json"; exit 1; }
  image_times+=("$time")
done
median9() { printf '%s\n' "$@" | sort -g | sed -n 5p; }
comment_s=$(median9 "${comment_times[@]}")
image_s=$(median9 "${image_times[@]}")
echo "comment: ${comment_times[*]} s, image upload: ${image_times[*]} s (medians $comment_s, $image_s)"

echo "== real time: idle sockets, write-to-delivery on one node and across two"
"$here/realtime.sh" "$bin" "$dir/realtime.json"

echo "== webhooks: 1,000 posts/s, each event through the outbox to a receiver"
"$here/webhooks.sh" "$bin" "$dir/webhooks.json"

echo "== images: resize, cached variant, concurrent resizes"
"$here/images.sh" "$bin" "$dir/images.json"

echo "== video: probe and poster of a 100 MB 1080p MP4"
"$here/video.sh" "$bin" "$dir/video.json"

echo "== read replicas: the feed page with reads on a replica, and the replica's lag under creates"
"$here/replica.sh" "$bin" "$dir/replica.json"

python3 "$here/report.py" --out "$here/results.json" --seconds "$seconds" \
  --images "$dir/images.json" --video "$dir/video.json" --replica "$dir/replica.json" --create "$dir/create.json" --create-loadtest "$dir/create-loadtest.json" --create-pg "$create_pg" --read "$dir/read.json" --read-pg "$read_pg" \
  --blocked "$dir/blocked.json" --blocked-pg "$blocked_pg" --blocked-pg-p99 "$blocked_pg_p99" \
  --timeline "$dir/timeline.json" --timeline-pg "$timeline_pg" --view "$dir/view.json" --view-pg "$view_pg" \
  --view-pg-p99 "$view_pg_p99" \
  --suggestions "$dir/suggestions.json" --suggestions-pg "$suggestions_pg" --suggestions-pg-p99 "$suggestions_pg_p99" --fanout "$dir/fanout.json" \
  --timeline-loadtest "$dir/timeline-loadtest.json" --reaction "$dir/reaction.json" --reaction-pg "$reaction_pg" \
  --reaction-pg-p99 "$reaction_pg_p99" --reaction-plain "$dir/reaction-plain.json" --reaction-notify "$dir/reaction-notify.json" \
  --bell "$dir/bell.json" --bell-pg "$bell_pg" --bell-pg-p99 "$bell_pg_p99" --mark-big "$dir/mark-big.json" --mark-small "$dir/mark-small.json" \
  --vote "$dir/vote.json" --vote-pg "$vote_pg" --vote-pg-p99 "$vote_pg_p99" --polls "$dir/polls.json" --polls-pg "$polls_pg" \
  --polls-pg-p99 "$polls_pg_p99" \
  --create-pg-p99 "$create_pg_p99" --read-pg-p99 "$read_pg_p99" --timeline-pg-p99 "$timeline_pg_p99" \
  --get "$get_feeds" --get-nginx "$get_nginx" --upload "$upload_s" --put "$put_s" --rss-growth "$rss_growth_mb" \
  --comment-photo "$comment_s" --image-upload "$image_s" --realtime "$dir/realtime.json" --webhooks "$dir/webhooks.json" \
  --load "$load_at_start" --postgres "$("$psql" -tA "$db" -c 'SHOW server_version')" --feeds-version "$(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo unknown)"
