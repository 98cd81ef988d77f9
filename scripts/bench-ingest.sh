#!/usr/bin/env bash
# The same ingest workload in-process and over HTTP, in one run: sightings/s of each, per core used, and the ratio.
#
#   scripts/bench-ingest.sh [--seconds 20] [--connections 8] [--batch 100] [--devices 50] [--durability normal]
#                           [--bin Server/.build/release]
#
# Builds nothing: run `swift build --package-path Server -c release --product indoor --product indoor-bench` first.
# (1) `indoor-bench ingest`: the simulated office of `indoor simulate --devices N` replayed in batches through one
# LocationSession on one core, alone and with each batch then committed to a fresh SQLite store (what the server
# does before it answers), and the request bodies decoded by the JSONDecoder-based and the one-pass decoders.
# (2) scripts/bench-serve.sh: the same sightings POSTed by wrk to `indoor serve` with a fresh database; the server's
# CPU time over the run gives the cores it used (wrk's own core is not counted).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=20
connections=8
batch=100
devices=50
durability=normal
bin=Server/.build/release
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --connections) connections="$2"; shift 2 ;;
        --batch) batch="$2"; shift 2 ;;
        --devices) devices="$2"; shift 2 ;;
        --durability) durability="$2"; shift 2 ;;
        --bin) bin="$2"; shift 2 ;;
        *) echo "bench-ingest: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
for tool in indoor indoor-bench; do
    [ -x "$bin/$tool" ] || { echo "bench-ingest: '$bin/$tool' not found: swift build --package-path Server -c release" >&2; exit 2; }
done

inprocess=$("$bin/indoor-bench" ingest --devices "$devices" --batch "$batch" --seconds "$seconds")
echo "$inprocess"
http=$(scripts/bench-serve.sh --seconds "$seconds" --connections "$connections" --batch "$batch" --devices "$devices" \
    --durability "$durability" --binary "$bin/indoor")
echo "$http"
session=$(sed -n 's/.*in-process (LocationSession, 1 core): \([0-9.]*\) sightings\/s.*/\1/p' <<< "$inprocess")
stored=$(sed -n 's/.*in-process with the store ([^)]*): \([0-9.]*\) sightings\/s.*/\1/p' <<< "$inprocess")
served=$(sed -n 's/^result:.* sightings_per_s=\([0-9.]*\).*/\1/p' <<< "$http")
cores=$(sed -n 's/^server: cpu .*(\([0-9.]*\) cores)/\1/p' <<< "$http")
# Per core, each rate is sightings per CPU second; 1e6 / rate is the CPU microseconds a sighting costs.
awk -v s="$session" -v t="$stored" -v h="$served" -v c="$cores" 'BEGIN {
    per = (c > 0) ? h / c : 0
    printf "in-process: %.0f sightings/s per core, %.0f with the store; HTTP: %.0f sightings/s on %.2f server cores = %.0f per core\n", s, t, h, c, per
    if (s > 0 && t > 0 && per > 0) {
        printf "CPU µs a sighting: session %.2f; session and store %.2f (the store %.2f); served over HTTP %.2f (beyond the session and the store %.2f)\n", 1e6 / s, 1e6 / t, 1e6 / t - 1e6 / s, 1e6 / per, 1e6 / per - 1e6 / t
        printf "ratio in-process (session alone) / HTTP per core: %.2f (the goal: at most 1.25, HTTP per core at least 0.8 x in-process)\n", s / per
        printf "ratio in-process (session and SQLite store commit) / HTTP per core: %.2f (what HTTP, admission and the answer add to the same session and store)\n", t / per
    }
}'
