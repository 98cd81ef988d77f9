#!/usr/bin/env python3
"""A development set without a survey, made from a dataset's static survey points (its train/ alone).

    scripts/static-survey-as-test.py SOURCE DEST [--seconds S] [--every E]

Each device of SOURCE/train/ that stands still at one surveyed point becomes a device of DEST/test/: every
receiver's sightings of it, in their order, spread evenly over S seconds (default 60), and a truth row every E
seconds (default 5) at the point's surveyed position. Devices are laid one after another, 1000 s apart.

Why: a survey recorded receiver by receiver (danis-tetam's keeps each receiver's first 300 packets of a point, over
1 to 7 minutes) leaves most receivers' packets stale at the time of the point's single truth row, so the split
cannot be scored as it stands. Spread alike, every receiver is heard at every truth row, as a device standing at
the point would be. The rate of packets is not kept; their values and order are. Use it with `indoor evaluate DEST
--no-survey` (DEST has no train/). nodes.csv and venue.json are copied. DEST must not exist.
docs/notes/auto-no-survey-uji-campaigns.md used it.
"""
import argparse
import csv
import os
import shutil
import sys


def read(path):
    """The rows of the CSV file PATH as dicts, with a clear error naming the file, line and field."""
    try:
        with open(path, newline="") as handle:
            return list(csv.DictReader(handle)), path
    except OSError as error:
        sys.exit(f"{path}: {error.strerror}")
    except (csv.Error, UnicodeDecodeError) as error:
        sys.exit(f"{path}: not a CSV file: {error}")


def number(row, field, path, line):
    try:
        return float(row[field])
    except (KeyError, TypeError, ValueError):
        sys.exit(f"{path}:{line}: {field}: not a number: {row.get(field)!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source")
    parser.add_argument("dest")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--every", type=float, default=5.0)
    args = parser.parse_args()
    if not 0 < args.every <= args.seconds <= 900:
        parser.error("need 0 < --every <= --seconds <= 900")
    if os.path.exists(args.dest):
        parser.error(f"{args.dest}: exists; give a new folder")

    truth_rows, truth_path = read(os.path.join(args.source, "train", "truth.csv"))
    positions = {}
    for line, row in enumerate(truth_rows, start=2):
        device = row.get("device")
        if not device:
            sys.exit(f"{truth_path}:{line}: device: empty")
        point = (number(row, "x", truth_path, line), number(row, "y", truth_path, line), row.get("z", ""),
                 row.get("floor", ""))
        if device in positions and positions[device] is None:
            continue
        if positions.setdefault(device, point) != point:
            print(f"{truth_path}:{line}: device {device} moves; left out (static points only)", file=sys.stderr)
            positions[device] = None
    sighting_rows, sightings_path = read(os.path.join(args.source, "train", "sightings.csv"))
    heard = {}
    for line, row in enumerate(sighting_rows, start=2):
        device = row.get("device")
        if positions.get(device) is None:
            continue
        time = number(row, "t", sightings_path, line)
        number(row, "rssi", sightings_path, line)
        heard.setdefault(device, {}).setdefault(row.get("node", ""), []).append((time, row["rssi"]))

    sightings, truth = [], []
    for index, device in enumerate(sorted(heard)):
        start = 1000.0 * (index + 1)
        for node, packets in heard[device].items():
            packets.sort(key=lambda packet: packet[0])
            for rank, (_, rssi) in enumerate(packets):
                sightings.append((start + (rank + 0.5) / len(packets) * args.seconds, device, node, rssi))
        x, y, z, floor = positions[device]
        steps = int(args.seconds // args.every)
        truth.extend((start + args.every * step, device, x, y, z, floor) for step in range(1, steps + 1))
    if not truth:
        sys.exit(f"{args.source}/train: no static point with sightings")
    sightings.sort()
    truth.sort()

    os.makedirs(os.path.join(args.dest, "test"))
    for name in ("nodes.csv", "venue.json"):
        if os.path.exists(os.path.join(args.source, name)):
            shutil.copyfile(os.path.join(args.source, name), os.path.join(args.dest, name))
    with open(os.path.join(args.dest, "test", "sightings.csv"), "w", newline="") as handle:
        handle.write("t,device,node,rssi\n")
        handle.writelines(f"{t:.3f},{device},{node},{rssi}\n" for t, device, node, rssi in sightings)
    with open(os.path.join(args.dest, "test", "truth.csv"), "w", newline="") as handle:
        handle.write("t,device,x,y,z,floor\n")
        handle.writelines(f"{t:.3f},{d},{x:g},{y:g},{z},{f}\n" for t, d, x, y, z, f in truth)
    print(f"{args.dest}: {len(heard)} points, {len(sightings)} sightings, {len(truth)} truth rows", file=sys.stderr)


if __name__ == "__main__":
    main()
