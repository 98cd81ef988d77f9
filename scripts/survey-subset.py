#!/usr/bin/env python3
"""A development set with a small survey, made from a dataset folder's train/ alone (or its test/).

    scripts/survey-subset.py SOURCE DEST DEVICE ROWS [--every K] [--test-from-train] [--offset DB]

DEST/train/ holds DEVICE's first ROWS truth rows of SOURCE/train/ and its sightings from 5 s before the first to
the last of them. DEVICE may name several devices, comma-separated: each keeps its own first ROWS rows. With
--every K only every K-th truth row is kept (the first ROWS of those), the sightings in between all kept: a walk
recorded with a position every few seconds. DEST/test/ is SOURCE/test/, or with --test-from-train the other devices
of SOURCE/train/ (so that no test split is looked at). --offset adds DB to every test sighting's RSSI (a survey
taken with another gain). nodes.csv and venue.json are copied. docs/notes/auto-small-and-offset-surveys.md used it.
"""
import argparse
import csv
import os
import shutil


def rows(path):
    with open(path, newline="") as handle:
        return list(csv.reader(handle))


def write(path, table):
    with open(path, "w", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(table)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source")
    parser.add_argument("dest")
    parser.add_argument("device")
    parser.add_argument("rows", type=int)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--test-from-train", action="store_true")
    parser.add_argument("--offset", type=float, default=0.0)
    args = parser.parse_args()
    if args.every < 1:
        parser.error("--every must be 1 or more")
    if os.path.exists(args.dest):
        parser.error(f"{args.dest} exists; choose a new folder")
    for split in ("train", "test"):
        os.makedirs(os.path.join(args.dest, split))
    for name in ("nodes.csv", "venue.json"):
        if os.path.exists(os.path.join(args.source, name)):
            shutil.copy(os.path.join(args.source, name), args.dest)
    truth = rows(os.path.join(args.source, "train", "truth.csv"))
    sightings = rows(os.path.join(args.source, "train", "sightings.csv"))
    devices = args.device.split(",")
    kept, spans = [], {}
    for device in devices:
        own = [row for row in truth[1:] if row[1] == device][:: args.every][: args.rows]
        if not own:
            parser.error(f"device {device!r} has no truth rows in {args.source}/train/truth.csv")
        kept += own
        spans[device] = (float(own[0][0]) - 5, float(own[-1][0]))
    kept.sort(key=lambda row: float(row[0]))

    def surveyed(row):
        span = spans.get(row[1])
        return span is not None and span[0] <= float(row[0]) <= span[1]

    write(os.path.join(args.dest, "train", "truth.csv"), [truth[0]] + kept)
    write(os.path.join(args.dest, "train", "sightings.csv"), [sightings[0]] + [r for r in sightings[1:] if surveyed(r)])
    if args.test_from_train:
        test_truth = [truth[0]] + [row for row in truth[1:] if row[1] not in spans]
        test_sightings = [sightings[0]] + [row for row in sightings[1:] if row[1] not in spans]
    else:
        test_truth = rows(os.path.join(args.source, "test", "truth.csv"))
        test_sightings = rows(os.path.join(args.source, "test", "sightings.csv"))
    rssi = test_sightings[0].index("rssi")
    for row in test_sightings[1:]:
        row[rssi] = f"{float(row[rssi]) + args.offset:g}"
    write(os.path.join(args.dest, "test", "truth.csv"), test_truth)
    write(os.path.join(args.dest, "test", "sightings.csv"), test_sightings)


if __name__ == "__main__":
    main()
