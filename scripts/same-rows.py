#!/usr/bin/env python3
"""Two methods' median errors on the truth rows both answer, from `indoor evaluate --rows` files.

    scripts/same-rows.py [--interval] ROWS_A METHOD_A ROWS_B METHOD_B

Prints "MEDIAN_A MEDIAN_B ROWS" (metres, metres, rows answered by both), or "- - 0" when they share no answered row.
A method that misses rows is compared with another only where it answers; scripts/accuracy.sh uses this to set the
default beside the peers' locators on the same rows.

With --interval it also prints "LOW HIGH": the 95% interval of MEDIAN_A - MEDIAN_B (metres) over 1000 resamples of
the shared rows in blocks (a device's rows in the same 30 s; a single scan is a block of its own), drawn with
replacement from a generator seeded with 0. Rows of one block err alike, so resampling rows one by one would make
the interval too narrow. An interval that holds 0 says the two medians differ by no more than the rows' chance.
"""
import csv
import random
import statistics
import sys

BLOCK_S = 30.0
RESAMPLES = 1000


def errors(path, method):
    """Each answered row's error by (device, time) for METHOD in the rows file PATH."""
    found = {}
    with open(path, newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), start=2):
            if row.get("method") != method or not row.get("error_m"):
                continue
            try:
                found[(row["device"], row["t"])] = float(row["error_m"])
            except (KeyError, ValueError) as problem:
                sys.exit(f"{path}:{line}: error_m: {problem}")
    return found


def interval(a, b, shared):
    """The 2.5% and 97.5% points of median(a) - median(b) over block resamples of the keys in SHARED."""
    blocks = {}
    for key in shared:
        device, time = key
        try:
            block = (device, int(float(time) // BLOCK_S))
        except ValueError:
            sys.exit(f"device {device}: t {time!r} is not a number")
        blocks.setdefault(block, []).append(key)
    groups = list(blocks.values())
    generator = random.Random(0)
    differences = []
    for _ in range(RESAMPLES):
        keys = [key for _ in groups for key in generator.choice(groups)]
        differences.append(statistics.median(a[key] for key in keys) - statistics.median(b[key] for key in keys))
    differences.sort()
    return differences[int(0.025 * RESAMPLES)], differences[int(0.975 * RESAMPLES) - 1]


def main():
    arguments = sys.argv[1:]
    with_interval = bool(arguments) and arguments[0] == "--interval"
    if with_interval:
        arguments = arguments[1:]
    if len(arguments) != 4:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    a = errors(arguments[0], arguments[1])
    b = errors(arguments[2], arguments[3])
    shared = sorted(a.keys() & b.keys())
    if not shared:
        print("- - 0 - -" if with_interval else "- - 0")
        return
    median_a = statistics.median(a[key] for key in shared)
    median_b = statistics.median(b[key] for key in shared)
    line = f"{median_a:.3f} {median_b:.3f} {len(shared)}"
    if with_interval:
        low, high = interval(a, b, shared)
        line += f" {low:+.3f} {high:+.3f}"
    print(line)


if __name__ == "__main__":
    main()
