#!/usr/bin/env python3
"""Count each method's misses among the truth rows where a node was heard in the 2 s before.

    scripts/misses-where-heard.py DATASET ROWS.csv

ROWS.csv is what `indoor evaluate DATASET --rows ROWS.csv` wrote. A truth row counts as heard when DATASET's
test/sightings.csv has a sighting of its device by a node of nodes.csv at a time within the 2 s before the row's
(inclusive); a miss is a row whose `no_fix` is set. Prints per method: rows, rows heard, misses, misses among the
rows heard (and their share), and the `no_fix` codes of those.
"""
import bisect
import collections
import csv
import os
import sys

if len(sys.argv) != 3:
    sys.exit(__doc__)
dataset, rows = sys.argv[1], sys.argv[2]
with open(os.path.join(dataset, "nodes.csv"), newline="") as f:
    nodes = {row["id"] for row in csv.DictReader(f)}
times = collections.defaultdict(list)
with open(os.path.join(dataset, "test", "sightings.csv"), newline="") as f:
    for row in csv.DictReader(f):
        if row["node"] in nodes:
            times[row["device"]].append(float(row["t"]))
for heard in times.values():
    heard.sort()


def heard_within(device, t, seconds=2.0):
    heard = times.get(device, [])
    index = bisect.bisect_right(heard, t)
    return index > 0 and heard[index - 1] >= t - seconds


counts = {}
with open(rows, newline="") as f:
    for row in csv.DictReader(f):
        count = counts.setdefault(row["method"], collections.Counter())
        heard = heard_within(row["device"], float(row["t"]))
        count["rows"] += 1
        count["heard"] += heard
        if row["no_fix"]:
            count["misses"] += 1
            if heard:
                count["heard misses"] += 1
                count["code " + row["no_fix"]] += 1
for method, count in counts.items():
    codes = ", ".join(f"{key[5:]} {value}" for key, value in sorted(count.items()) if key.startswith("code "))
    share = 100 * count["heard misses"] / max(1, count["heard"])
    print(
        f"{method}: {count['rows']} rows, {count['heard']} heard in the 2 s before, {count['misses']} misses, "
        f"{count['heard misses']} of them heard ({share:.2f} %){'; ' + codes if codes else ''}"
    )
