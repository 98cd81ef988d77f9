#!/usr/bin/env python3
"""Two methods' median errors on the truth rows both answer, from `indoor evaluate --rows` files.

    scripts/same-rows.py ROWS_A METHOD_A ROWS_B METHOD_B

Prints "MEDIAN_A MEDIAN_B ROWS" (metres, metres, rows answered by both), or "- - 0" when they share no answered row.
A method that misses rows is compared with another only where it answers; scripts/accuracy.sh uses this to set the
default beside the peers' locators on the same rows.
"""
import csv
import statistics
import sys


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


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    a = errors(sys.argv[1], sys.argv[2])
    b = errors(sys.argv[3], sys.argv[4])
    shared = sorted(a.keys() & b.keys())
    if not shared:
        print("- - 0")
        return
    median_a = statistics.median(a[key] for key in shared)
    median_b = statistics.median(b[key] for key in shared)
    print(f"{median_a:.3f} {median_b:.3f} {len(shared)}")


if __name__ == "__main__":
    main()
