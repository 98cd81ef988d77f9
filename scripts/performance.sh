#!/usr/bin/env bash
# Regenerates docs/PERFORMANCE.md: the benchmarks of the engine, the server's ingest over HTTP and MQTT, and the
# peak memory of the long runs, all measured in this one run on this machine. Run from anywhere:
#
#     scripts/performance.sh                 # writes docs/PERFORMANCE.md (about 10 minutes)
#     scripts/performance.sh -               # prints to standard output instead
#     scripts/performance.sh --quick [OUT]   # leaves out the memory table (about 4 minutes)
#
# Options: --runs N (indoor-bench positioning runs; ranges are their minimum–maximum; default 3), --seconds S
# (each load phase; default 10). Builds the release products first. The load benchmarks need wrk and curl, the MQTT
# one mosquitto (Debian: wrk curl mosquitto mosquitto-clients); a benchmark that cannot run says so in the document.
# The machine is shared on CI-like hosts: the document records its cores and load, and the ratios measured side by
# side in one run are the figures to compare between machines.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

out=docs/PERFORMANCE.md
runs=3
seconds=10
memory=yes
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) memory=no; shift ;;
        --runs) runs="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        -*) [ "$1" = - ] && { out=-; shift; continue; }; echo "performance.sh: unknown option '$1'" >&2; exit 2 ;;
        *) out="$1"; shift ;;
    esac
done

swift build --package-path Server -c release --product indoor >&2
swift build --package-path Server -c release --product indoor-bench >&2
bin="$root/Server/.build/release"
work=$(mktemp -d "${TMPDIR:-/tmp}/indoor-performance.XXXXXX")
trap 'rm -rf "$work"' EXIT
step() { echo "performance.sh: $*" >&2; }

cat /proc/loadavg > "$work/load-start"
for run in $(seq 1 "$runs"); do
    step "indoor-bench positioning, run $run of $runs"
    "$bin/indoor-bench" positioning --json > "$work/positioning-$run.json" 2> /dev/null
done
step "indoor-bench decode"
"$bin/indoor-bench" decode --json > "$work/decode.json" 2> /dev/null
step "indoor-bench zones"
"$bin/indoor-bench" zones --json > "$work/zones.json" 2> /dev/null

have() { command -v "$1" > /dev/null; }
if have wrk && have curl; then
    for setting in "2 normal" "8 normal" "8 full" "32 normal"; do
        set -- $setting
        step "scripts/bench-serve.sh --connections $1 --durability $2"
        scripts/bench-serve.sh --seconds "$seconds" --connections "$1" --durability "$2" --binary "$bin/indoor" \
            > "$work/serve-$1-$2.txt" 2>&1 || echo "failed" >> "$work/serve-$1-$2.txt"
    done
    step "scripts/bench-ingest.sh"
    scripts/bench-ingest.sh --seconds "$seconds" --bin "$bin" > "$work/ingest.txt" 2>&1 || echo "failed" >> "$work/ingest.txt"
else
    echo "not run: wrk and curl are needed (apt-get install wrk curl)" > "$work/serve-missing.txt"
fi
if have wrk && have curl && have mosquitto && have mosquitto_pub; then
    step "scripts/bench-mqtt.sh"
    scripts/bench-mqtt.sh --seconds "$seconds" --no-build > "$work/mqtt.txt" 2>&1 || echo "failed" >> "$work/mqtt.txt"
else
    echo "not run: mosquitto, mosquitto-clients, wrk and curl are needed" > "$work/mqtt.txt"
fi

# Peak memory and time of the long runs: `/usr/bin/time -v` around each command.
measure() {
    local name="$1"
    shift
    step "memory: $name"
    /usr/bin/time -v "$@" > /dev/null 2> "$work/time-$name.txt" || true
}
if [ "$memory" = yes ] && [ -x /usr/bin/time ]; then
    cd "$work"
    measure simulate-huge "$bin/indoor" simulate -o huge --devices 200 --duration 3600
    huge_bytes=$(du -sb huge | cut -f1)
    rm -rf huge
    measure simulate-big "$bin/indoor" simulate -o big --devices 100 --duration 1800 --seed 3
    measure replay-big "$bin/indoor" replay --venue big/venue.json big/test/sightings.csv --method weighted-centroid
    head -c 1073741824 /dev/zero > zeros.csv
    measure replay-zeros "$bin/indoor" replay --venue big/venue.json zeros.csv
    rm -f zeros.csv
    measure evaluate-big "$bin/indoor" evaluate big --method weighted-centroid
    measure evaluate-big-four "$bin/indoor" evaluate big --method weighted-centroid --method nonlinear --method knn \
        --method nonlinear+track
    measure calibrate-big "$bin/indoor" calibrate big -o big-calibration.json
    mkdir untrained && ln -s ../big/test untrained/test && cp big/nodes.csv untrained/
    measure calibrate-untrained "$bin/indoor" calibrate untrained -o untrained-calibration.json
    "$bin/indoor" simulate -o floors3 --floors 3 --seed 3 > /dev/null 2>&1
    measure evaluate-auto "$bin/indoor" evaluate floors3 --method auto --method particle-filter --method auto+track
    python3 "$root/scripts/many-devices.py" big 40000 many.csv
    measure replay-many "$bin/indoor" replay --venue big/venue.json --survey big many.csv
    measure zones-churn "$bin/indoor-bench" zones --churn --seconds 10000 --arrivals 100
    echo "$huge_bytes" > "$work/huge-bytes"
    cd "$root"
fi
cat /proc/loadavg > "$work/load-end"

step "writing ${out/#-/standard output}"
python3 - "$work" "$runs" "$seconds" "$memory" > "$work/PERFORMANCE.md" <<'PY'
import glob, json, os, re, subprocess, sys

work, runs, seconds, memory = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "yes"

def read(name):
    path = os.path.join(work, name)
    return open(path, encoding="utf-8").read() if os.path.exists(path) else ""

def spread(values, scale=1.0, digits=0, unit=""):
    """min–max of values / scale, or one figure when they agree at this precision."""
    low, high = min(values) / scale, max(values) / scale
    a, b = f"{low:,.{digits}f}".replace(",", " "), f"{high:,.{digits}f}".replace(",", " ")
    return (a if a == b else f"{a}–{b}") + unit

positioning = [json.loads(read(f"positioning-{run}.json")) for run in range(1, runs + 1)]
pf = [p["particleFilter"] for p in positioning]
nonlinear = [next(s["fixesPerSecond"] for s in p["solvers"] if s["name"] == "nonlinear") for p in positioning]
decode = json.loads(read("decode.json"))
zones = json.loads(read("zones.json"))
cores = os.cpu_count()
model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
load_start = read("load-start").split()[:3]
load_end = read("load-end").split()[:3]

print("# Performance")
print()
print("Generated by `scripts/performance.sh` (release build) on a machine of "
      f"{cores} cores ({model}); load average {' '.join(load_start)} at the start of the run and "
      f"{' '.join(load_end)} at its end. Every figure below comes from this one run; ranges are over "
      f"{runs} run{'s' if runs != 1 else ''} of `indoor-bench positioning`. `indoor-bench`'s rates are per second of "
      "CPU time of its one thread, so other jobs lengthen a run more than they lower its figure (a busy sibling "
      "hyperthread or shared cache still does); the load benchmarks are timed by the wall clock. Rates follow the "
      "core; the ratios, measured side by side in one run, are the figures to compare between machines.")
print()
print("## The engine")
print()
print("| benchmark (one core) | measured | goal | command |")
print("|---|---:|---:|---|")
pos = "`swift run -c release --package-path Server indoor-bench positioning`"
print(f"| `nonlinear` solver, fixes/s | {spread(nonlinear, 1e6, 2, ' M')} | ≥ 1.4 M | {pos} |")
print(f"| `nonlinear` against a plain Gauss–Newton in C on the same readings, same run (`CGaussNewton`) | "
      f"{spread([p['nonlinearToGaussNewtonC'] for p in positioning], digits=2)} of its rate | ≥ 0.82 | same |")
print(f"| engine, sightings/s (a `nonlinear` fix per device per 8 sightings) | "
      f"{spread([p['engineSightingsPerSecond'] for p in positioning], 1e6, 2, ' M')} | ≥ 2 M | same |")
print(f"| engine ingest only, sightings/s | {spread([p['engineIngestSightingsPerSecond'] for p in positioning], 1e6, 1, ' M')} | | same |")
print(f"| `nonlinear` RMSE / Cramér–Rao bound RMS (σ {positioning[0]['sigmaDB']:g} dB, {positioning[0]['nodesHeard']} nodes in range) | "
      f"{positioning[0]['nonlinearToCRBRatio']:.3f} | ≤ 1.2 | same |")
print(f"| particle filter, updates/s (1000 particles, 8 nodes heard) | {spread([p['updatesPerSecond'] for p in pf], 1e3, 1, ' k')} | ≥ 50 k | same |")
print(f"| the same without the lost-cloud check (`lostChance` 0), same run | "
      f"{spread([p['uncheckedUpdatesPerSecond'] for p in pf], 1e3, 1, ' k')} | | same |")
print(f"| particle filter without the check against the same update in plain C, same run (`CParticleFilter`) | "
      f"{spread([p['updatesToC'] for p in pf], digits=2)} × its rate ({spread([p['cUpdatesPerSecond'] for p in pf], 1e3, 1, ' k')} updates/s in C) | ≥ 0.8 | same |")
print(f"| `auto` without a survey (the default; its posterior's mean on a lattice: `PosteriorLattice`), fixes/s | "
      f"{spread([p['defaultFixesPerSecond'] for p in pf], 1e3, 1, ' k')}, "
      f"{spread([p['defaultFixesPerSecond'] / p['exhaustiveFixesPerSecond'] for p in pf], digits=1)} × the reference below | ≥ 30 k | same |")
print(f"| the same posterior's mean over every grid point (the reference, same run) | "
      f"{spread([p['exhaustiveFixesPerSecond'] for p in pf], 1e3, 1, ' k')} | | same |")
print(f"| btsnoop advertisements decoded/s (Linux monitor datalink) | {decode['advertisementsPerSecond'] / 1e6:.1f} M "
      f"({decode['megabytesPerSecond']:.0f} MB/s) | ≥ 5 M | `swift run -c release --package-path Server indoor-bench decode` |")
print(f"| zones: fixes/s through `ZoneEngine` ({zones['devices']} devices random-walking over {zones['zones']} zones; "
      f"{zones['events']} events, digest `{zones['digest']}`) | {zones['fixesPerSecond'] / 1e6:.2f} M | | "
      "`swift run -c release --package-path Server indoor-bench zones` |")
print()
print("How `indoor-bench positioning` reads: each solver's fixes/s over the workload's devices; the engine's "
      "sightings/s; `nonlinear` against the Cramér–Rao bound and against a plain Gauss–Newton in C timed right after "
      "it on the same readings; the particle filter's updates/s (200 devices' clouds of 1000 particles on the "
      "workload's path-loss map at 0.33 m, each update one second later with readings heard half a second before), "
      "then the same updates in plain C (`CParticleFilter`, fed the same lattice tables, normal deviates and "
      "generator states, from copies of the same clouds; `ParticleFilterBaselineTests` checks that both leave the "
      "same particles); then `auto` without a survey beside its posterior's mean over every grid point, which it "
      "answers within millimetres of ([note](notes/posterior-lattice.md)). The workload: 24 nodes on a 6 × 4 grid over "
      "40 m × 30 m at z = 2.5 m, devices at z = 1.2 m hearing their 8 nearest nodes, −59 dBm at 1 m, exponent 2, "
      "shadowing σ = 4 dB, seeded. All three benchmarks take `--json`.")
print()

def serve_row(label, name, command):
    text = read(f"serve-{name}.txt")
    match = re.search(r"^result: .*sightings_per_s=(\d+) p50_ms=([\d.]+) p90_ms=[\d.]+ p99_ms=([\d.]+)", text, re.M)
    cpu = re.search(r"\(([\d.]+) cores\)", text)
    if not match:
        print(f"| {label} | not run: {(text.strip().splitlines() or ['no output'])[-1]} | | | | `{command}` |")
        return
    rate = f"{int(match.group(1)):,}".replace(",", " ")
    print(f"| {label} | {rate} | {float(match.group(2)):.1f} ms | {float(match.group(3)):.1f} ms | "
          f"{cpu.group(1) if cpu else '?'} | `{command}` |")

print("## The server")
print()
print(f"`scripts/bench-serve.sh --seconds {seconds}`: release build, loopback, a fresh database, the simulated office of "
      "`indoor simulate --devices 50`, wrk with one thread keeping N batches of 100 sightings in flight; wrk shares "
      "the cores with the server. The default method, no zones; the script checks that the server counted every "
      "acknowledged sighting.")
print()
print("| `indoor serve`, batches of 100 sightings | sightings/s | p50 | p99 | server cores | command |")
print("|---|---:|---:|---:|---:|---|")
if read("serve-missing.txt"):
    print(f"| all | {read('serve-missing.txt').strip()} | | | | `scripts/bench-serve.sh` |")
else:
    serve_row("2 connections", "2-normal", "scripts/bench-serve.sh --connections 2")
    serve_row("8 connections (goal: ≥ 50 000/s, p99 < 50 ms)", "8-normal", "scripts/bench-serve.sh")
    serve_row("8 connections, `--durability full`", "8-full", "scripts/bench-serve.sh --durability full")
    serve_row("32 connections", "32-normal", "scripts/bench-serve.sh --connections 32")
print()
print("### HTTP ingest against in-process")
print()
print(f"`scripts/bench-ingest.sh --seconds {seconds}` runs one workload two ways in one run: the simulated office's "
      "test sightings in batches of 100, (1) in-process through one `LocationSession` on one core "
      "(`indoor-bench ingest`, which also times the body decoders and the SQLite writes), (2) POSTed by wrk to "
      "`indoor serve` as above; the server's cores are its CPU seconds over the run's wall time (wrk's not counted). "
      "Goal: HTTP per core ≥ 0.8 × in-process, that is a ratio in-process / HTTP ≤ 1.25. The in-process run "
      "commits each batch alone; under wrk's connections the server commits the batches that wait together (group "
      "commit, docs/SERVER.md), so the second ratio compares a little more than the HTTP path alone. Its output:")
print()
ingest = read("ingest.txt")
keep = [line for line in ingest.splitlines()
        if line.startswith(("ingest:", "  in-process", "  decode", "  SQLite", "in-process", "ratio", "server: cpu",
                            "result:", "not run", "failed", "bench-"))]
print("```")
print("\n".join(keep) if keep else (read("serve-missing.txt").strip() or "no output"))
print("```")
print()
print("Why the one-pass reader and the multi-row inserts: [note](notes/ingest-decoder.md).")
print()
print("### MQTT ingest")
print()
print(f"`scripts/bench-mqtt.sh --seconds {seconds}` runs both ingest paths against one `indoor serve --mqtt` in one "
      "run: mosquitto on loopback (no persistence, no in-flight limit towards subscribers), the same simulated office; "
      "first wrk posts batches of 100 sightings as above; then `indoor-bench mqtt-publish` publishes as many ESPresense "
      "messages (`espresense/devices/<device>/<node>`, one sighting each) at QoS 0 and then QoS 1, timed from the first "
      "publish until the server's `indoor_sightings_ingested_total` has counted them all. Broker, publisher, wrk and "
      "server share the cores. Goal: MQTT QoS 0 ≥ 50 000 sightings/s and ≥ 0.8 × HTTP. Its table:")
print()
mqtt = read("mqtt.txt")
table = mqtt[mqtt.find("machine:"):] if "machine:" in mqtt else mqtt.strip()
print("```")
print(table.strip() or "no output")
print("```")
print()

if memory:
    def peak(name):
        text = read(f"time-{name}.txt")
        rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
        wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", text)
        status = re.search(r"Exit status: (\d+)", text)
        if not rss or not wall:
            return "not measured"
        parts = [float(p) for p in wall.group(1).split(":")]
        secs = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
        kb = int(rss.group(1))
        size = f"{kb / 1024 / 1024:.2f} GB" if kb >= 1024 * 1024 else f"{kb / 1024:.0f} MB"
        code = int(status.group(1)) if status else 0
        return f"{size}, {secs:.1f} s" + (f" (exit status {code})" if code else "")
    huge = int(read("huge-bytes").strip() or 0)
    print("## Memory of the long runs")
    print()
    print("Peak resident memory and wall time (`/usr/bin/time -v`) of commands on large inputs. `big` is a simulated "
          "office of 100 walkers for 1800 s (`indoor simulate -o big --devices 100 --duration 1800 --seed 3`, with "
          "its survey in `train/`); how these compare with the builds before the runs streamed is in "
          "[note](notes/memory-streaming.md).")
    print()
    print("| command | peak memory, time |")
    print("|---|---:|")
    rows = [
        (f"`indoor simulate -o huge --devices 200 --duration 3600` ({huge / 1e6:.0f} MB written)", "simulate-huge"),
        ("`indoor simulate -o big --devices 100 --duration 1800 --seed 3`", "simulate-big"),
        ("`indoor replay --venue big/venue.json big/test/sightings.csv --method weighted-centroid`", "replay-big"),
        ("`indoor replay` of a 1 GiB file of zero bytes (refused at its first bytes)", "replay-zeros"),
        ("`indoor evaluate big --method weighted-centroid`", "evaluate-big"),
        ("`indoor evaluate big` with `--method` `weighted-centroid`, `nonlinear`, `knn`, `nonlinear+track`", "evaluate-big-four"),
        ("`indoor calibrate big -o big.json` (fits on train/)", "calibrate-big"),
        ("`indoor calibrate` of the same test sightings without `train/` (fits on all of them)", "calibrate-untrained"),
        ("`indoor evaluate` with `auto`, `particle-filter`, `auto+track` on `indoor simulate --floors 3 --seed 3`", "evaluate-auto"),
        ("`indoor replay --survey big` of 40 000 devices heard within 40 s (`scripts/many-devices.py big 40000`)", "replay-many"),
        ("`indoor-bench zones --churn --seconds 10000 --arrivals 100` (1 M short-lived devices, 10 M fixes)", "zones-churn"),
    ]
    for label, name in rows:
        print(f"| {label} | {peak(name)} |")
    print()
    print("What stays in memory while `simulate` streams: the venue, each walker's path (its waypoints), one pending "
          "advertising event and one random generator per beacon, the slow-shadowing state of the beacon–phone links "
          "in range, one adapter index per device for the capture, and a 1 MiB buffer per file. What `evaluate` "
          "holds: the survey (`train/`, which the methods learn from), each engine's per-device state, and per method "
          "one 8-byte error per located truth row and a few numbers per device. `calibrate`'s robust fit needs all its "
          "samples at once (24 bytes per usable sighting). Bounds that hold memory on any input: "
          "`PositioningEngine.Configuration.maximumBeliefBytes` (the particle clouds, 1 GiB), "
          "`ZoneEngine.Configuration.maximumDevices`, `SessionConfiguration.maximumDevices` (devices a session holds).")
    print()
    print('## History and reports over a week')
    print()
    print("`indoor-bench history --days 7` fills a store with a week of 50 devices walking between 8 rooms, a fix a second each (30 240 000 fixes, 62 278 zone events, 31 164 visits), then times the last whole day's zone report by hour for all zones, the playback of an hour of that day for every device in pages of 10 000 fixes (as `GET …/history` reads them), one device's hour and the devices' positions at one instant (`?at=`); best of 3. Not part of this run (the fill takes 4 minutes for SQLite and 11–15 for PostgreSQL here). Measured apart from the generated run (2026-11-30, release build, this 2-core machine, quiet; PostgreSQL 15 on loopback with 2 GB of shared buffers), both stores in one run, two runs; the goal is well under a second for the day's report and the hour's playback ([note](notes/2026-11-29-history-reports.md), [PostgreSQL's pages](notes/2026-11-30-history-fix-json.md)):")
    print()
    print('| read | SQLite | PostgreSQL |')
    print('|---|---:|---:|')
    print("| the day's report, 8 zones × 24 hours (192 rows, 4 508 visits) | 0.054–0.058 s | 0.053–0.054 s |")
    print("| the hour's playback, 50 devices, 180 000 fixes in 18 pages | 0.239–0.261 s | 0.438–0.446 s |")
    print("| one device's hour (3 600 fixes) | 0.029–0.030 s | 0.022–0.031 s |")
    print('| the 50 devices at one instant | 0.004 s | 0.005–0.006 s |')
    print('| the store on disk | 6.8 GB | 16.5 GB |')
    print()
    print("Both stores answer each fix's JSON as the server wrote it (PostgreSQL keeps it beside the JSONB, `event.fix_json`: a third more on disk); PostgreSQL's playback spends about 8–10 ms a page in the database and the rest in the client's reading of 10 000 rows. After filling a PostgreSQL store the benchmark runs `ANALYZE`, as autovacuum would in time. Commands: `indoor-bench history --days 7 --sqlite FILE` (fills the file once, reuses it after), `INDOOR_DATABASE_PASSWORD=… indoor-bench history --days 7 --postgres postgres://USER@HOST:PORT/DB --postgres-only`.")
    print()
    print("## Memory under devices that come and go")
    print()
    print("`indoor serve` under a stream of new device ids (rotating private addresses: 60 new ids a second, each heard "
          "for 5 s by 4 of 12 nodes) for 30 minutes of the wall clock, its resident memory sampled each minute: "
          "`scripts/bench-churn.py --minutes 30` (not part of this run, which would take 30 minutes more); the goal is "
          "memory flat after warm-up, within 20 % of its value at 5 minutes. Its measured runs are in "
          "[note](notes/device-churn-memory.md). "
          "Measured apart from the generated run (2026-11-29, release build, the shared 2-core machine with "
          "builds beside it), `scripts/bench-churn.py --minutes 20`: resident memory 86.9 MB at 5 minutes and "
          "88.6 MB at 20 minutes, ratio 1.02 (goal: at most 1.20); the devices held level at 3 900 from the "
          "second minute. The same run before the server emptied its sessions' activity logs went from 89.3 MB "
          "at 5 minutes to 105.8 MB at 30 (1.18), its heap growing 0.66 MB a minute.")
PY
if [ "$out" = - ]; then
    cat "$work/PERFORMANCE.md"
else
    mv "$work/PERFORMANCE.md" "$out.tmp" && mv "$out.tmp" "$out"
    step "wrote $out"
fi
