#!/usr/bin/env python3
"""How fast the store grows: bytes per sighting and per device-day.

Starts `indoor serve` (BINARY, default Server/.build/release/indoor) on a new database in a temporary folder, puts
a venue of 4 nodes, and posts DEVICES devices each heard by 3 nodes once a second for SECONDS seconds of data time
(in batches of one second), as gateways would; then stops the server (which checkpoints its log) and reports the
database file's growth. The folder is removed afterwards.

Usage: scripts/store-growth.py [--binary PATH] [--devices 20] [--seconds 600]
"""
import argparse, json, os, re, secrets, shutil, signal, subprocess, sys, tempfile, time, urllib.request

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--binary", default="Server/.build/release/indoor")
parser.add_argument("--devices", type=int, default=20)
parser.add_argument("--seconds", type=int, default=600)
args = parser.parse_args()
if not os.access(args.binary, os.X_OK):
    sys.exit(f"store-growth: '{args.binary}' not found: swift build --package-path Server -c release --product indoor")

# Keys strong enough for indoor serve (128 bits or more).
ADMIN = "growth-admin-" + secrets.token_hex(16)
INGEST = "growth-ingest-" + secrets.token_hex(16)
folder = tempfile.mkdtemp(prefix="indoor-growth-")
database = os.path.join(folder, "indoor.sqlite")
server = subprocess.Popen(
    [args.binary, "serve", "--port", "0", "--database", database, "--admin-key", ADMIN, "--ingest-key", INGEST,
     "--log-level", "error"], stdout=subprocess.PIPE, text=True)
try:
    line = server.stdout.readline()
    port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))

    def call(method, path, key, body):
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method=method,
                                         headers={"Authorization": f"Bearer {key}"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.load(answer)

    venue = {"id": "growth", "nodes": [{"id": f"n{i}", "x": x, "y": y} for i, (x, y) in
                                       enumerate([(0, 0), (20, 0), (0, 20), (20, 20)])]}
    call("PUT", "/v1/venues/growth", ADMIN, venue)
    server.send_signal(signal.SIGTERM); server.wait(timeout=60)
    empty = os.path.getsize(database)
    server = subprocess.Popen(
        [args.binary, "serve", "--port", "0", "--database", database, "--log-level", "error"],
        stdout=subprocess.PIPE, text=True)
    port = int(re.search(r"127\.0\.0\.1:(\d+)", server.stdout.readline()).group(1))
    sightings = fixes = 0
    for second in range(args.seconds):
        batch = [{"t": second + device / args.devices, "device": f"phone-{device}", "node": f"n{(device + k) % 4}",
                  "rssi": -60 - k * 5} for device in range(args.devices) for k in range(3)]
        answer = call("POST", "/v1/sightings", INGEST, {"venue": "growth", "sightings": batch})
        sightings += answer["accepted"]
        fixes += len(answer["fixes"])
    server.send_signal(signal.SIGTERM); server.wait(timeout=60)
    grown = os.path.getsize(database) - empty
    device_seconds = args.devices * args.seconds
    print(f"{sightings} sightings and {fixes} fixes from {args.devices} devices over {args.seconds} s: "
          f"{grown} bytes, {grown / sightings:.0f} bytes per sighting (with its share of the fixes), "
          f"{grown / device_seconds * 86400 / 1e6:.1f} MB per device-day at 3 sightings per second")
finally:
    if server.poll() is None:
        server.kill()
    shutil.rmtree(folder, ignore_errors=True)
