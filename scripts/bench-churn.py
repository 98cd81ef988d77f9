#!/usr/bin/env python3
"""Memory of `indoor serve` under devices that come and go (rotating private addresses), over wall-clock time.

Starts `indoor serve` (BINARY, default Server/.build/release/indoor) on a new SQLite database in a temporary folder,
puts a venue of 12 nodes and 12 zones (a 4 x 3 grid of 10 m rooms, a node in each), and posts once a second, paced
by the wall clock with data time on Unix seconds: RATE new device ids every second, each heard by the 4 nodes nearest
its room once a second for LIFE seconds and never again. Every SAMPLE seconds it reads the server's resident memory
(VmRSS of /proc/PID/status, and its anonymous and file-backed parts) and what `/metrics` says the venue holds
(`indoor_devices_tracked`), and the size of the database with its write-ahead log, and prints one line;
at the end a summary: memory at 5 minutes and at the end, and their ratio (the goal: within 20 %, flat after warm-up).
The folder is removed afterwards.

Usage: scripts/bench-churn.py [--binary PATH] [--rate 60] [--life 5] [--minutes 30] [--sample 60]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--binary", default="Server/.build/release/indoor")
parser.add_argument("--rate", type=int, default=60, help="new device ids per second")
parser.add_argument("--life", type=int, default=5, help="seconds each device is heard")
parser.add_argument("--minutes", type=float, default=30)
parser.add_argument("--sample", type=int, default=60, help="seconds between memory samples")
args = parser.parse_args()
if not os.access(args.binary, os.X_OK):
    sys.exit(f"bench-churn: '{args.binary}' not found: swift build --package-path Server -c release --product indoor")
if args.rate < 1 or args.life < 1 or args.minutes <= 0 or args.sample < 1:
    sys.exit("bench-churn: --rate, --life and --sample must be at least 1 and --minutes positive")

ROOMS = [(column, row) for row in range(3) for column in range(4)]


def venue():
    nodes = [{"id": f"n{i}", "x": 10 * c + 5, "y": 10 * r + 5} for i, (c, r) in enumerate(ROOMS)]
    zones = [{"id": f"room-{i}", "name": f"Room {i}",
              "fences": [{"polygon": [[10 * c, 10 * r], [10 * c + 10, 10 * r], [10 * c + 10, 10 * r + 10],
                                      [10 * c, 10 * r + 10]]}]} for i, (c, r) in enumerate(ROOMS)]
    return {"id": "churn", "name": "Churn", "nodes": nodes, "zones": zones}


def nearest(room):
    c, r = ROOMS[room]
    order = sorted(range(len(ROOMS)), key=lambda i: ((ROOMS[i][0] - c) ** 2 + (ROOMS[i][1] - r) ** 2, i))
    return order[:4]


def memory_kb(pid):
    """VmRSS, RssAnon (the heap and stacks) and RssFile (mapped files and the binary) of /proc/PID/status, in kB."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, rest = line.partition(":")
            if name in ("VmRSS", "RssAnon", "RssFile"):
                values[name] = int(rest.split()[0])
    return values.get("VmRSS", 0), values.get("RssAnon", 0), values.get("RssFile", 0)


def database_mb():
    """Size of the SQLite database and its write-ahead log, in MB."""
    paths = [os.path.join(folder, "indoor.sqlite" + suffix) for suffix in ("", "-wal")]
    return sum(os.path.getsize(path) for path in paths if os.path.exists(path)) / 1048576


folder = tempfile.mkdtemp(prefix="indoor-churn-")
server = subprocess.Popen(
    [args.binary, "serve", "--port", "0", "--database", os.path.join(folder, "indoor.sqlite"), "--admin-key",
     "admin-key-churn-5e0c93a7d1f4b862", "--ingest-key", "ingest-key-churn-0a7f2c94e1b6d385", "--read-key", "read-key-churn-c4e8139b07a2f5d6", "--log-level", "error"],
    stdout=subprocess.PIPE, text=True)
try:
    port = int(re.search(r"127\.0\.0\.1:(\d+)", server.stdout.readline()).group(1))

    def call(method, path, key, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                         headers={"Authorization": f"Bearer {key}"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.read()

    def tracked():
        text = call("GET", "/metrics", "read-key-churn-c4e8139b07a2f5d6").decode()
        match = re.search(r'^indoor_devices_tracked(?:\{[^}]*\})? ([0-9.e+]+)$', text, re.M)
        return int(float(match.group(1))) if match else -1

    call("PUT", "/v1/venues/churn", "admin-key-churn-5e0c93a7d1f4b862", venue())
    start = time.time()
    seconds = int(args.minutes * 60)
    samples = []
    print(f"{args.rate} new ids/s, each heard {args.life} s by 4 of 12 nodes, for {args.minutes:g} min", flush=True)
    print("minute  resident MB  devices held  new ids so far  anon MB  file MB  database MB", flush=True)
    for second in range(seconds):
        now = start + second
        wait = now - time.time()
        if wait > 0:
            time.sleep(wait)
        batch = []
        for born in range(max(0, second - args.life + 1), second + 1):
            for index in range(args.rate):
                device = f"id-{born}-{index}"
                room = (born * args.rate + index) % len(ROOMS)
                for k, node in enumerate(nearest(room)):
                    batch.append({"t": round(now + index / args.rate / 2 + k * 0.01, 3), "device": device,
                                  "node": f"n{node}", "rssi": -58 - 6 * k})
        call("POST", "/v1/sightings", "ingest-key-churn-0a7f2c94e1b6d385", {"venue": "churn", "sightings": batch})
        if (second + 1) % args.sample == 0:
            resident, anonymous, mapped = memory_kb(server.pid)
            sample = ((second + 1) / 60, resident / 1024, tracked(), (second + 1) * args.rate)
            samples.append(sample)
            print(f"{sample[0]:6.1f}  {sample[1]:11.1f}  {sample[2]:12d}  {sample[3]:14d}  {anonymous / 1024:7.1f}"
                  f"  {mapped / 1024:7.1f}  {database_mb():11.1f}", flush=True)
    at5 = next((s for s in samples if s[0] >= 5), None)
    if at5 and samples:
        last = samples[-1]
        print(f"resident memory at 5 min {at5[1]:.1f} MB, at {last[0]:g} min {last[1]:.1f} MB: "
              f"ratio {last[1] / at5[1]:.2f} (goal: at most 1.20)")
finally:
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    shutil.rmtree(folder, ignore_errors=True)
