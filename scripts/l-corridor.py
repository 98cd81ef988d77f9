#!/usr/bin/env python3
"""Write a simulated L-shaped corridor dataset (test/ only, no survey), for measuring `auto` without a survey there.

    scripts/l-corridor.py OUT SEED [FLOOR_DBM] [--exponent E] [--height-gap H] [--aside A] [--speed V]
                          [--stops P] [--pause MIN MAX]

The corridor is 55 m along its middle: 40 m along x, then 15 m up y. 16 beacons (b0…b15) stand every 55/15 m on
that line, each with its own power at 1 m (−59 dBm, 3 dB spread). Four walkers (w0…w3) go up and down the
corridor at V m/s (default 1.2), A m (default 0.6) from the beacons' line, for 300 s, each with a receiver offset
(4 dB spread); truth every second. With --stops P a walker stops, at each whole second with chance P (default 0:
never), for a time drawn between MIN and MAX seconds (default 30 and 60), and then goes on. Every beacon is heard
about once in two seconds with log-distance path loss (exponent E, default 2.2; corridors guide the signal, below 2 in
measurements; H m between the phone's and the beacons' heights, default 1.2: the beacons' z is 1.3 + H), 3 dB of slow
shadowing per beacon and walker, 5 dB per packet, 12 dB more round the corner; packets below FLOOR_DBM (default −88)
are not heard, so the walkers hear a few beacons near them. The same arguments give the same files (Python's
`random`, seeded with SEED). OUT must not exist.
"""
import argparse
import math
import os
import random

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("out")
parser.add_argument("seed", type=int)
parser.add_argument("floor_dbm", type=float, nargs="?", default=-88.0)
parser.add_argument("--exponent", type=float, default=2.2)
parser.add_argument("--height-gap", type=float, default=1.2)
parser.add_argument("--aside", type=float, default=0.6)
parser.add_argument("--speed", type=float, default=1.2)
parser.add_argument("--stops", type=float, default=0.0)
parser.add_argument("--pause", type=float, nargs=2, default=[30.0, 60.0], metavar=("MIN", "MAX"))
args = parser.parse_args()
if not (args.exponent > 0 and args.height_gap >= 0 and args.aside >= 0 and args.speed > 0):
    parser.error("need --exponent and --speed above 0, --height-gap and --aside 0 or more")
if not (0 <= args.stops <= 1 and 0 <= args.pause[0] <= args.pause[1]):
    parser.error("need --stops from 0 to 1 and 0 <= --pause MIN <= MAX")
out, seed, floor_dbm = args.out, args.seed, args.floor_dbm
if os.path.exists(out):
    parser.error(f"{out}: exists; give a new folder")
rng = random.Random(seed)
# dB per decade of distance, rounded so that exponent 2.2 gives exactly 22 as before.
loss_db = round(10 * args.exponent, 9)


def middle(s):
    """The point s metres along the beacons' line."""
    return (s, 0.0) if s <= 40 else (40.0, s - 40)


beacons = [(f"b{i}", *middle(i * 55 / 15)) for i in range(16)]
power = {b: -59 + rng.gauss(0, 3) for b, _, _ in beacons}
sightings, truth = [], []
for walker in range(4):
    device = f"w{walker}"
    s = rng.uniform(0, 55)
    velocity = rng.choice([-1, 1]) * args.speed
    offset = rng.gauss(0, 4)
    slow = {b: rng.gauss(0, 3) for b, _, _ in beacons}
    paused = 0.0
    for step in range(1, 3001):
        t = step / 10
        # Random draws for stops only when stops are asked for: without them the files are as before.
        if args.stops > 0 and step % 10 == 0 and paused <= 0 and rng.random() < args.stops:
            paused = rng.uniform(args.pause[0], args.pause[1])
        if paused > 0:
            paused -= 0.1
        else:
            s += velocity * 0.1
        if s < 0 or s > 55:
            velocity = -velocity
            s = min(max(s, 0), 55)
        x, y = middle(s)
        px, py = (x, y + args.aside) if s <= 40 else (x + args.aside, y)
        if step % 10 == 0:
            truth.append((t, device, px, py))
        for b, bx, by in beacons:
            if rng.random() > 0.05:
                continue
            distance = math.sqrt((px - bx) ** 2 + (py - by) ** 2 + args.height_gap**2)
            round_corner = (s <= 38 and by > 2) or (s >= 42 and bx < 38)
            rssi = power[b] - loss_db * math.log10(distance) + slow[b] + offset + rng.gauss(0, 5)
            rssi -= 12 if round_corner else 0
            if rssi >= floor_dbm:
                sightings.append((t, device, b, round(rssi)))
sightings.sort()
truth.sort()
os.makedirs(os.path.join(out, "test"))
with open(os.path.join(out, "nodes.csv"), "x") as f:
    f.write("id,x,y,z,floor\n")
    for b, x, y in beacons:
        f.write(f"{b},{x:.2f},{y:.2f},{round(1.3 + args.height_gap, 6):g},\n")
with open(os.path.join(out, "test", "sightings.csv"), "x") as f:
    f.write("t,device,node,rssi\n")
    for t, device, b, rssi in sightings:
        f.write(f"{t:.1f},{device},{b},{rssi}\n")
with open(os.path.join(out, "test", "truth.csv"), "x") as f:
    f.write("t,device,x,y,z,floor\n")
    for t, device, x, y in truth:
        f.write(f"{t:.1f},{device},{x:.2f},{y:.2f},,\n")
