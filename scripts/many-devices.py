#!/usr/bin/env python3
"""Write a sightings CSV of many distinct devices, for measuring memory per device.

    scripts/many-devices.py DATASET COUNT OUT.csv

Each of COUNT devices (d0, d1, …) is heard at t, t + 1.5 and t + 2.5 s from the first six nodes of
DATASET/nodes.csv (−60, −63, … dBm); t starts at 101 s and moves on by one second every 1000 devices, so all
are within the engine's 60 s device expiry when COUNT ≤ 50 000. OUT.csv must not exist (it is never replaced).
"""
import csv
import os
import sys

if len(sys.argv) != 4:
    sys.exit(__doc__)
dataset, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if os.path.exists(out):
    sys.exit(f"{out}: exists; give a new file name")
with open(os.path.join(dataset, "nodes.csv"), newline="") as f:
    nodes = [row["id"] for row in csv.DictReader(f)][:6]
partial = out + ".partial"
if os.path.exists(partial):
    sys.exit(f"{partial}: exists (left by an interrupted run?); remove it or give another name")
with open(partial, "x") as f:
    f.write("t,device,node,rssi\n")
    t = 100.0
    for d in range(count):
        if d % 1000 == 0:
            t += 1
        for dt in (0, 1.5, 2.5):
            for k, node in enumerate(nodes):
                f.write(f"{t + dt},d{d},{node},{-60 - 3 * k}\n")
os.rename(partial, out)
