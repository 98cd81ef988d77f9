#!/usr/bin/env bash
# Load benchmark of `indoor serve` on loopback: batches of simulated sightings POSTed by wrk.
#
#   scripts/bench-serve.sh [--seconds 20] [--connections 8] [--batch 100] [--devices 50] [--durability normal]
#                          [--binary Server/.build/release/indoor] [--perf FILE]
#
# Builds nothing: run `swift build --package-path Server -c release --product indoor` first (or pass --binary). Starts the server on a
# free port with a fresh database in a temporary folder it makes (and removes), creates the simulated venue of
# `indoor simulate`, runs wrk (one thread, N connections, each posting a batch, waiting for the answer, posting
# the next) for a bounded time, then checks that the server counted every acknowledged sighting, stops the
# server by its pid and prints sightings/s and latency percentiles. Needs wrk and curl (Debian: wrk, curl).
# --perf FILE records the server's call graphs during the wrk run (`perf record -g -p PID -o FILE`; Debian:
# linux-perf); read them with `perf report -i FILE --no-children` (self) or `--children` (inclusive).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=20
connections=8
batch=100
devices=50
durability=normal
binary=Server/.build/release/indoor
perf_output=""
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --connections) connections="$2"; shift 2 ;;
        --batch) batch="$2"; shift 2 ;;
        --devices) devices="$2"; shift 2 ;;
        --durability) durability="$2"; shift 2 ;;
        --binary) binary="$2"; shift 2 ;;
        --perf) perf_output="$2"; shift 2 ;;
        *) echo "bench-serve: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
tools="wrk curl"
[ -n "$perf_output" ] && tools="$tools perf"
for tool in $tools; do
    command -v "$tool" > /dev/null || { echo "bench-serve: '$tool' is not installed (apt-get install $tool)" >&2; exit 2; }
done
[ -x "$binary" ] || { echo "bench-serve: '$binary' not found: swift build --package-path Server -c release --product indoor" >&2; exit 2; }

work=$(mktemp -d)
server=""
recorder=""
cleanup() {
    if [ -n "$recorder" ] && kill -0 "$recorder" 2> /dev/null; then
        kill -INT "$recorder" 2> /dev/null || true
        wait "$recorder" 2> /dev/null || true
    fi
    if [ -n "$server" ] && kill -0 "$server" 2> /dev/null; then
        kill -TERM "$server" 2> /dev/null || true
        wait "$server" 2> /dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

"$binary" simulate -o "$work/venue" --devices "$devices" --duration 300 > /dev/null
venue=$(sed -n 's/.*"id" *: *"\([^"]*\)".*/\1/p' "$work/venue/venue.json" | head -1)
admin="bench-admin-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
ingest="bench-ingest-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
"$binary" serve --port 0 --database "$work/bench.sqlite" --durability "$durability" --admin-key "$admin" \
    --ingest-key "$ingest" --log-level warning > "$work/server.out" 2> "$work/server.err" &
server=$!
address=""
for _ in $(seq 1 300); do
    address=$(sed -n 's/^Indoor server listening on \(http:[^ ]*\).*/\1/p' "$work/server.out")
    [ -n "$address" ] && break
    kill -0 "$server" 2> /dev/null || { cat "$work/server.err" >&2; echo "bench-serve: the server exited" >&2; exit 1; }
    sleep 0.1
done
[ -n "$address" ] || { echo "bench-serve: the server printed no address within 30 s" >&2; exit 1; }
curl -sf -X PUT -H "Authorization: Bearer $admin" -H "Content-Type: application/json" \
    --data-binary "@$work/venue/venue.json" "$address/v1/venues/$venue" > /dev/null

echo "indoor serve $address (pid $server, $durability durability, fresh database); venue '$venue', $devices walkers"
echo "wrk: $connections connections, batches of $batch sightings, $seconds s"
# The server's CPU time (user + system, clock ticks; fields 14 and 15 of /proc/PID/stat) around the run: how many
# cores it used.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$server/stat" 2> /dev/null || echo 0; }
if [ -n "$perf_output" ]; then
    perf record -g -p "$server" -o "$perf_output" > "$work/perf.out" 2>&1 &
    recorder=$!
    sleep 0.5
fi
cpu_before=$(cpu_ticks)
wall_before=$(date +%s.%N)
wrk -t1 -c"$connections" -d"${seconds}s" --timeout 10s --latency -s scripts/bench/post-batches.lua "$address" \
    -- "$work/venue/test/sightings.csv" "$venue" "$batch" "$ingest" > "$work/wrk.out"
cpu_after=$(cpu_ticks)
wall_after=$(date +%s.%N)
if [ -n "$recorder" ]; then
    kill -INT "$recorder" 2> /dev/null || true
    wait "$recorder" 2> /dev/null || true
    recorder=""
    echo "perf: the server's call graphs during the run in $perf_output"
fi
cat "$work/wrk.out"
awk -v a="$cpu_before" -v b="$cpu_after" -v s="$wall_before" -v e="$wall_after" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { cpu = (b - a) / hz; printf "server: cpu %.2f s over %.2f s of wall time (%.2f cores)\n", cpu, e - s, cpu / (e - s) }'
result=$(grep '^result:' "$work/wrk.out")
curl -sf -H "Authorization: Bearer $admin" "$address/metrics" > "$work/metrics.txt"
ingested=$(sed -n 's/^indoor_sightings_ingested_total \([0-9.e+]*\).*/\1/p' "$work/metrics.txt")
requests=$(sed -n 's/.*requests=\([0-9]*\).*/\1/p' <<< "$result")
failed=$(sed -n 's/.* failed=\([0-9]*\).*/\1/p' <<< "$result")
echo "server: indoor_sightings_ingested_total ${ingested:-?}; acknowledged by wrk: $(((requests - failed) * batch))" \
    "(the server counts the batches still in flight when wrk stopped too)"
grep -E '^indoor_(events_emitted_total|devices_tracked|sightings_rejected_total)' "$work/metrics.txt" | sed 's/^/server: /' || true
# Group commit: how many batches an ingest transaction took on average.
commits=$(sed -n 's/^indoor_ingest_commits_total \([0-9.e+]*\).*/\1/p' "$work/metrics.txt")
batches=$(sed -n 's/^indoor_ingest_batches_total \([0-9.e+]*\).*/\1/p' "$work/metrics.txt")
if [ -n "$commits" ] && [ -n "$batches" ]; then
    awk -v c="$commits" -v b="$batches" 'BEGIN { if (c > 0) printf "server: %d ingest commits for %d batches (%.2f batches a commit)\n", c, b, b / c }'
fi
if [ "$failed" != 0 ]; then
    echo "bench-serve: $failed requests failed" >&2
    exit 1
fi
