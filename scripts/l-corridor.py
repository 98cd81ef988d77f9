#!/usr/bin/env python3
"""Write a simulated L-shaped corridor dataset (test/ only, no survey), for measuring `auto` without a survey there.

    scripts/l-corridor.py OUT SEED [FLOOR_DBM]

The corridor is 55 m along its middle: 40 m along x, then 15 m up y. 16 beacons (b0…b15) stand every 55/15 m on
that line at 2.5 m, each with its own power at 1 m (−59 dBm, 3 dB spread). Four walkers (w0…w3) go up and down the
corridor at 1.2 m/s, 0.6 m from the beacons' line, for 300 s, each with a receiver offset (4 dB spread); truth
every second. Every beacon is heard about twice a second with log-distance path loss (exponent 2.2, 1.2 m between
the phone's and the beacons' heights), 3 dB of slow shadowing per beacon and walker, 5 dB per packet, 12 dB more
round the corner; packets below FLOOR_DBM (default −88) are not heard, so the walkers hear a few beacons near them.
The same SEED gives the same files (Python's `random`). OUT must not exist.
"""
import math
import os
import random
import sys

if len(sys.argv) not in (3, 4):
    sys.exit(__doc__)
out, seed = sys.argv[1], int(sys.argv[2])
floor_dbm = float(sys.argv[3]) if len(sys.argv) == 4 else -88.0
if os.path.exists(out):
    sys.exit(f"{out}: exists; give a new folder")
rng = random.Random(seed)


def middle(s):
    """The point s metres along the beacons' line."""
    return (s, 0.0) if s <= 40 else (40.0, s - 40)


beacons = [(f"b{i}", *middle(i * 55 / 15)) for i in range(16)]
power = {b: -59 + rng.gauss(0, 3) for b, _, _ in beacons}
sightings, truth = [], []
for walker in range(4):
    device = f"w{walker}"
    s = rng.uniform(0, 55)
    velocity = rng.choice([-1, 1]) * 1.2
    offset = rng.gauss(0, 4)
    slow = {b: rng.gauss(0, 3) for b, _, _ in beacons}
    for step in range(1, 3001):
        t = step / 10
        s += velocity * 0.1
        if s < 0 or s > 55:
            velocity = -velocity
            s = min(max(s, 0), 55)
        x, y = middle(s)
        px, py = (x, y + 0.6) if s <= 40 else (x + 0.6, y)
        if step % 10 == 0:
            truth.append((t, device, px, py))
        for b, bx, by in beacons:
            if rng.random() > 0.05:
                continue
            distance = math.sqrt((px - bx) ** 2 + (py - by) ** 2 + 1.2**2)
            round_corner = (s <= 38 and by > 2) or (s >= 42 and bx < 38)
            rssi = power[b] - 22 * math.log10(distance) + slow[b] + offset + rng.gauss(0, 5)
            rssi -= 12 if round_corner else 0
            if rssi >= floor_dbm:
                sightings.append((t, device, b, round(rssi)))
sightings.sort()
truth.sort()
os.makedirs(os.path.join(out, "test"))
with open(os.path.join(out, "nodes.csv"), "x") as f:
    f.write("id,x,y,z,floor\n")
    for b, x, y in beacons:
        f.write(f"{b},{x:.2f},{y:.2f},2.5,\n")
with open(os.path.join(out, "test", "sightings.csv"), "x") as f:
    f.write("t,device,node,rssi\n")
    for t, device, b, rssi in sightings:
        f.write(f"{t:.1f},{device},{b},{rssi}\n")
with open(os.path.join(out, "test", "truth.csv"), "x") as f:
    f.write("t,device,x,y,z,floor\n")
    for t, device, x, y in truth:
        f.write(f"{t:.1f},{device},{x:.2f},{y:.2f},,\n")
