#!/usr/bin/env bash
# MQTT ingest beside HTTP ingest, side by side in one run, against one `indoor serve --mqtt` on loopback.
#
#   scripts/bench-mqtt.sh [--seconds 10] [--connections 8] [--batch 100] [--devices 50] [--publishers 2]
#                         [--in-flight 200] [--durability normal] [--no-build] [--bin DIR]
#
# Builds the release products (`swift build -c release --package-path Server`) unless --no-build or --bin DIR (the
# products of another build, to compare builds), starts mosquitto
# on a free loopback port (no persistence, no in-flight limit towards subscribers, a queue of 1 M messages per
# client) and `indoor serve --mqtt` on a fresh database in a temporary folder it makes (and removes), and puts the
# simulated venue of `indoor simulate` (DEVICES walkers). Then, against that one server:
#   1. HTTP: wrk posts batches of the simulated sightings for SECONDS (scripts/bench-serve.sh's workload and Lua
#      script); the sightings acknowledged by the server, over wrk's seconds, make the HTTP rate.
#   2. MQTT QoS 0 and 3. MQTT QoS 1: `indoor-bench mqtt-publish` publishes as many ESPresense messages (one sighting
#      each, from the same rows) to the broker and times them from the first publish until the server's
#      indoor_sightings_ingested_total has grown by that many.
# Prints a table (path, sightings, seconds, sightings/s, ratio to HTTP) and the CPU seconds the server and the broker
# used in each phase. Everything it started is stopped at the end, by pid. Needs mosquitto, wrk, curl, python3.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=10
connections=8
batch=100
devices=50
publishers=2
in_flight=200
durability=normal
build=1
bin=""
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --connections) connections="$2"; shift 2 ;;
        --batch) batch="$2"; shift 2 ;;
        --devices) devices="$2"; shift 2 ;;
        --publishers) publishers="$2"; shift 2 ;;
        --in-flight) in_flight="$2"; shift 2 ;;
        --durability) durability="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        --bin) bin="$2"; build=0; shift 2 ;;
        *) echo "bench-mqtt: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
for tool in mosquitto wrk curl python3; do
    command -v "$tool" > /dev/null || { echo "bench-mqtt: '$tool' is not installed (apt-get install $tool)" >&2; exit 2; }
done

if [ "$build" = 1 ]; then
    echo "bench-mqtt: building the release products (swift build -c release --package-path Server)"
    swift build -c release --package-path Server > /dev/null
fi
[ -n "$bin" ] || bin=$(swift build -c release --package-path Server --show-bin-path)
for product in indoor indoor-bench; do
    [ -x "$bin/$product" ] || { echo "bench-mqtt: '$bin/$product' not found; run without --no-build" >&2; exit 2; }
done

work=$(mktemp -d)
broker=""
server=""
stop() {
    if [ -n "$1" ] && kill -0 "$1" 2> /dev/null; then
        kill -TERM "$1" 2> /dev/null || true
        wait "$1" 2> /dev/null || true
    fi
}
cleanup() {
    stop "$server"
    stop "$broker"
    rm -rf "$work"
}
trap cleanup EXIT

# CPU seconds (user + system) a process has used so far.
cpu_seconds() {
    awk -v tick="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f\n", ($12 + $13) / tick }' "/proc/$1/stat"
}

# The server's indoor_sightings_ingested_total.
ingested() {
    curl -sf -H "Authorization: Bearer $read" "$address/metrics" \
        | sed -n 's/^indoor_sightings_ingested_total \([0-9.e+]*\).*/\1/p' | awk '{ printf "%d\n", $1 }'
}

# Waits until the server's counter stops moving (the batches still in flight when wrk stopped).
settle() {
    local before after
    after=$(ingested)
    for _ in $(seq 1 100); do
        before=$after
        sleep 0.3
        after=$(ingested)
        [ "$before" = "$after" ] && break
    done
}

load=$(cut -d' ' -f1-3 /proc/loadavg)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$work/mosquitto.conf" << EOF
listener $port 127.0.0.1
allow_anonymous true
persistence false
max_queued_messages 1000000
max_inflight_messages 0
log_dest stderr
EOF
mosquitto -c "$work/mosquitto.conf" 2> "$work/mosquitto.log" &
broker=$!
for _ in $(seq 1 100); do
    (: < "/dev/tcp/127.0.0.1/$port") 2> /dev/null && break
    kill -0 "$broker" 2> /dev/null || { cat "$work/mosquitto.log" >&2; echo "bench-mqtt: mosquitto exited" >&2; exit 1; }
    sleep 0.1
done
echo "bench-mqtt: mosquitto $(mosquitto -h 2> /dev/null | sed -n 's/^mosquitto version //p') on 127.0.0.1:$port (pid $broker)"

"$bin/indoor" simulate -o "$work/venue" --devices "$devices" --duration 300 > /dev/null
venue=$(sed -n 's/.*"id" *: *"\([^"]*\)".*/\1/p' "$work/venue/venue.json" | head -1)
admin="bench-admin-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
ingest="bench-ingest-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
read="bench-read-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
"$bin/indoor" serve --port 0 --database "$work/bench.sqlite" --durability "$durability" --admin-key "$admin" \
    --ingest-key "$ingest" --read-key "$read" --mqtt "mqtt://127.0.0.1:$port" --mqtt-client-id "indoor-bench-$$" \
    --log-level warning > "$work/server.out" 2> "$work/server.err" &
server=$!
address=""
for _ in $(seq 1 300); do
    address=$(sed -n 's/^Indoor server listening on \(http:[^ ]*\).*/\1/p' "$work/server.out")
    [ -n "$address" ] && break
    kill -0 "$server" 2> /dev/null || { cat "$work/server.err" >&2; echo "bench-mqtt: the server exited" >&2; exit 1; }
    sleep 0.1
done
[ -n "$address" ] || { echo "bench-mqtt: the server printed no address within 30 s" >&2; exit 1; }
curl -sf -X PUT -H "Authorization: Bearer $admin" -H "Content-Type: application/json" \
    --data-binary "@$work/venue/venue.json" "$address/v1/venues/$venue" > /dev/null
for _ in $(seq 1 100); do
    curl -sf -H "Authorization: Bearer $read" "$address/health" | grep -q '"connected"' && break
    sleep 0.1
done
echo "bench-mqtt: indoor serve $address (pid $server, $durability durability, fresh database), venue '$venue'," \
    "$devices walkers, $(($(wc -l < "$work/venue/test/sightings.csv") - 1)) sighting rows"

# 1. HTTP.
echo "bench-mqtt: [1/3] HTTP: wrk, $connections connections, batches of $batch sightings, $seconds s"
server_cpu=$(cpu_seconds "$server")
broker_cpu=$(cpu_seconds "$broker")
# The venue's time is Unix seconds (MQTT messages are stamped with the server's clock), so the rows are replayed from
# 3000 s ago: within the server's default lateness (3600 s) for about ten laps over the 300 s file.
offset=$(($(date +%s) - 3000))
wrk -t1 -c"$connections" -d"${seconds}s" --timeout 10s -s scripts/bench/post-batches.lua "$address" \
    -- "$work/venue/test/sightings.csv" "$venue" "$batch" "$ingest" "$offset" > "$work/wrk.out"
result=$(grep '^result:' "$work/wrk.out")
requests=$(sed -n 's/.*requests=\([0-9]*\).*/\1/p' <<< "$result")
failed=$(sed -n 's/.* failed=\([0-9]*\).*/\1/p' <<< "$result")
http_seconds=$(sed -n 's/.* seconds=\([0-9.]*\).*/\1/p' <<< "$result")
[ "$failed" = 0 ] || { cat "$work/wrk.out" >&2; echo "bench-mqtt: $failed HTTP requests failed" >&2; exit 1; }
count=$(((requests - failed) * batch))
settle
echo "http $count $http_seconds $(python3 -c "print(f'{$count / $http_seconds:.0f}')")" \
    "$(python3 -c "print(f'{$(cpu_seconds "$server") - $server_cpu:.2f}')")" \
    "$(python3 -c "print(f'{$(cpu_seconds "$broker") - $broker_cpu:.2f}')")" > "$work/rows.txt"
echo "bench-mqtt: HTTP: $count sightings acknowledged in $http_seconds s"

# 2 and 3. MQTT, the same number of sightings.
step=2
for qos in 0 1; do
    echo "bench-mqtt: [$step/3] MQTT QoS $qos: $count ESPresense messages, $publishers connections ×" \
        "$in_flight publishes in flight"
    server_cpu=$(cpu_seconds "$server")
    broker_cpu=$(cpu_seconds "$broker")
    "$bin/indoor-bench" mqtt-publish --broker "mqtt://127.0.0.1:$port" --server "$address" \
        --read-key "$read" --sightings "$work/venue/test/sightings.csv" --count "$count" --qos "$qos" \
        --publishers "$publishers" --in-flight "$in_flight" --timeout 300 --json > "$work/mqtt-$qos.json"
    python3 - "$work/mqtt-$qos.json" "$qos" "$(cpu_seconds "$server")" "$server_cpu" "$(cpu_seconds "$broker")" \
        "$broker_cpu" >> "$work/rows.txt" << 'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
server = float(sys.argv[3]) - float(sys.argv[4])
broker = float(sys.argv[5]) - float(sys.argv[6])
print(f"mqtt-qos{sys.argv[2]} {r['sightings']} {r['seconds']:.2f} {r['sightingsPerSecond']:.0f} {server:.2f} {broker:.2f}")
EOF
    echo "bench-mqtt: MQTT QoS $qos: $(tail -1 "$work/rows.txt" | awk '{ print $2 " sightings in " $3 " s" }')"
    step=$((step + 1))
done

refused=$(curl -sf -H "Authorization: Bearer $read" "$address/metrics" | grep -E '^indoor_(mqtt_refused_total|sightings_rejected_total)' || true)
[ -z "$refused" ] || sed 's/^/bench-mqtt: server: /' <<< "$refused"
echo
echo "machine: $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); load average at the start: $load, at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk 'BEGIN { printf "%-10s %10s %8s %12s %10s %14s %14s\n", "path", "sightings", "seconds", "sightings/s", "vs HTTP", "server CPU s", "broker CPU s" }
     NR == 1 { http = $4 }
     { printf "%-10s %10d %8.2f %12d %10.2f %14.2f %14.2f\n", $1, $2, $3, $4, $4 / http, $5, $6 }' "$work/rows.txt"
