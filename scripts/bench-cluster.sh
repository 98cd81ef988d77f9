#!/usr/bin/env bash
# Ingest throughput of `indoor serve` on PostgreSQL: one server, then one and two cluster instances, side by side in
# one run, each fed by wrk on loopback.
#
#   scripts/bench-cluster.sh [--seconds 15] [--connections 8] [--batch 100] [--devices 50]
#                            [--binary Server/.build/release/indoor]
#
# Builds nothing: run `swift build --package-path Server -c release --product indoor` first. Needs PostgreSQL's server
# programs (Debian: postgresql), wrk and curl. Starts a throw-away PostgreSQL cluster in a temporary folder it makes
# (as the `postgres` user when run as root; PostgreSQL refuses root), on a free loopback port, and removes it at the
# end. Each phase gets a fresh database and two copies of `indoor simulate`'s office as venues `office-1` and
# `office-2`:
#   single   one `indoor serve` without --instance; wrk posts to office-1
#   one      one instance (--instance a); wrk posts to office-1
#   two      instances a and b; each venue is placed on one of them; one wrk per venue, each to the venue's owner
# Prints each phase's sightings/s (sum of its wrk runs) and p99 latency.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=15
connections=8
batch=100
devices=50
binary=Server/.build/release/indoor
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --connections) connections="$2"; shift 2 ;;
        --batch) batch="$2"; shift 2 ;;
        --devices) devices="$2"; shift 2 ;;
        --binary) binary="$2"; shift 2 ;;
        *) echo "bench-cluster: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
for tool in wrk curl python3; do
    command -v "$tool" > /dev/null || { echo "bench-cluster: '$tool' is not installed" >&2; exit 2; }
done
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -1)
[ -n "$pgbin" ] && [ -x "$pgbin/initdb" ] || { echo "bench-cluster: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 2; }
[ -x "$binary" ] || { echo "bench-cluster: '$binary' not found: swift build --package-path Server -c release --product indoor" >&2; exit 2; }
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
work=$(mktemp -d)
chmod 755 "$work"
servers=()
as_postgres() { if [ "$(id -u)" = 0 ]; then setpriv --reuid=postgres --regid=postgres --init-groups "$@"; else "$@"; fi; }
cleanup() {
    for pid in "${servers[@]}"; do kill -TERM "$pid" 2> /dev/null || true; wait "$pid" 2> /dev/null || true; done
    as_postgres "$pgbin/pg_ctl" -D "$work/pg" -m immediate stop > /dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

mkdir "$work/pg"
[ "$(id -u)" = 0 ] && chown postgres "$work/pg"
pgport=$(free_port)
as_postgres "$pgbin/initdb" -D "$work/pg" -U indoor --auth=trust > /dev/null
as_postgres "$pgbin/pg_ctl" -D "$work/pg" -l "$work/pg/log" -o "-p $pgport -k $work/pg -c listen_addresses=127.0.0.1" -w start > /dev/null

"$binary" simulate -o "$work/venue" --devices "$devices" --duration 300 > /dev/null
id=$(sed -n 's/.*"id" *: *"\([^"]*\)".*/\1/p' "$work/venue/venue.json" | head -1)
for n in 1 2; do sed "0,/\"id\" *: *\"$id\"/s//\"id\": \"office-$n\"/" "$work/venue/venue.json" > "$work/office-$n.json"; done

start_server() { # NAME DATABASE [OPTIONS...] -> prints the address
    local name=$1 database=$2; shift 2
    "$binary" serve --database "$database" --admin-key bench-admin-7c1e5a93f08d2b46 --ingest-key bench-ingest-2f9b6d04e8a13c75 --log-level warning "$@" \
        > "$work/$name.out" 2> "$work/$name.err" &
    servers+=($!)
    local address=""
    for _ in $(seq 1 300); do
        address=$(sed -n 's/^Indoor server listening on \(http:[^ ]*\).*/\1/p' "$work/$name.out")
        [ -n "$address" ] && break
        sleep 0.1
    done
    [ -n "$address" ] || { cat "$work/$name.err" >&2; echo "bench-cluster: $name printed no address" >&2; exit 1; }
    echo "$address"
}
stop_servers() {
    for pid in "${servers[@]}"; do kill -TERM "$pid" 2> /dev/null || true; wait "$pid" 2> /dev/null || true; done
    servers=()
}
put_venues() { # ADDRESS
    for n in 1 2; do
        curl -sf -X PUT -H "Authorization: Bearer bench-admin-7c1e5a93f08d2b46" --data-binary "@$work/office-$n.json" \
            "$1/v1/venues/office-$n" > /dev/null
    done
}
owner_address() { # ADDRESS VENUE -> the owner's advertised URL
    curl -sf -H "Authorization: Bearer bench-admin-7c1e5a93f08d2b46" "$1/health" | python3 -c '
import json, sys
health = json.load(sys.stdin)
members = {m["id"]: m["url"] for m in health["cluster"]["members"]}
print(members.get(sys.argv[2], ""))' "$1" "$2"
}
run_wrk() { # ADDRESS VENUE OUT
    wrk -t1 -c"$connections" -d"${seconds}s" --timeout 10s --latency -s scripts/bench/post-batches.lua "$1" \
        -- "$work/venue/test/sightings.csv" "$2" "$batch" bench-ingest-2f9b6d04e8a13c75 > "$3"
}
report() { # PHASE FILES...
    local phase=$1; shift
    python3 - "$phase" "$@" << 'PY'
import re, sys
phase, files = sys.argv[1], sys.argv[2:]
rate, p99, failed = 0.0, 0.0, 0
for path in files:
    line = next(l for l in open(path) if l.startswith("result:"))
    fields = dict(re.findall(r"(\w+)=([0-9.]+)", line))
    rate += float(fields["sightings_per_s"])
    p99 = max(p99, float(fields["p99_ms"]))
    failed += int(fields.get("failed", fields.get("non2xx", "0")))
print(f"{phase:8s} {rate:10.0f} sightings/s   p99 {p99:6.1f} ms   failed requests {failed}")
PY
}

database() { createdb_name=$1; as_postgres "$pgbin/createdb" -h "$work/pg" -p "$pgport" -U indoor "$createdb_name"; echo "postgres://indoor@127.0.0.1:$pgport/$createdb_name"; }

echo "bench-cluster: PostgreSQL $("$pgbin/postgres" --version | awk '{print $3}') on 127.0.0.1:$pgport; wrk $connections connections, batches of $batch, $seconds s per phase; $(nproc) cores"

url=$(database single)
address=$(start_server single "$url" --port 0)
put_venues "$address"
run_wrk "$address" office-1 "$work/single.wrk"
stop_servers
report single "$work/single.wrk"

url=$(database one)
port=$(free_port)
address=$(start_server a1 "$url" --port "$port" --instance a)
put_venues "$address"
sleep 3
run_wrk "$address" office-1 "$work/one.wrk"
stop_servers
report one "$work/one.wrk"

url=$(database two)
pa=$(free_port); pb=$(free_port)
a=$(start_server a2 "$url" --port "$pa" --instance a)
b=$(start_server b2 "$url" --port "$pb" --instance b)
put_venues "$a"
for _ in $(seq 1 100); do
    o1=$(curl -sf -H "Authorization: Bearer bench-admin-7c1e5a93f08d2b46" "$a/v1/venues" | python3 -c '
import json, sys; print(" ".join(v.get("owner", "-") for v in json.load(sys.stdin)["venues"]))')
    case "$o1" in "a b" | "b a") break ;; esac
    sleep 0.2
done
echo "two: owners of office-1 office-2: $o1"
owner1=$(owner_address "$a" "${o1%% *}")
owner2=$(owner_address "$a" "${o1##* }")
run_wrk "$owner1" office-1 "$work/two-1.wrk" &
w1=$!
run_wrk "$owner2" office-2 "$work/two-2.wrk"
wait "$w1"
stop_servers
report two "$work/two-1.wrk" "$work/two-2.wrk"
