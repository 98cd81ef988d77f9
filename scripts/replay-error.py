#!/usr/bin/env python3
"""Scores `indoor replay` output against a dataset's truth: each device's last fix at or before each truth row.

Usage: indoor replay --venue DATASET --survey DATASET DATASET/test/sightings.csv > fixes.jsonl
       scripts/replay-error.py [--last-fix] fixes.jsonl DATASET/test/truth.csv

For every truth row (t, device, x, y) the fix scored is the device's latest fix with time <= t (the answer a live
user had at that moment; rows before a device's first fix count as misses). With --last-fix, each truth row is
scored against its device's last fix of the whole replay instead (for sets whose devices stand still, one scan
each, such as uji-library). Prints the rows scored, misses, and the median, mean and 90th percentile of the
horizontal error in metres.
"""
import csv
import json
import sys
from bisect import bisect_right


def main() -> int:
    arguments = sys.argv[1:]
    last_fix = "--last-fix" in arguments
    arguments = [argument for argument in arguments if argument != "--last-fix"]
    if len(arguments) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    fixes_path, truth_path = arguments
    fixes: dict[str, list[tuple[float, float, float]]] = {}
    with open(fixes_path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            try:
                event = json.loads(line)
            except json.JSONDecodeError as error:
                print(f"{fixes_path}:{number}: not JSON: {error}", file=sys.stderr)
                return 1
            if event.get("type") != "fix":
                continue
            fixes.setdefault(event["device"], []).append((event["t"], event["x"], event["y"]))
    errors: list[float] = []
    misses = 0
    with open(truth_path, encoding="utf-8", newline="") as table:
        for row in csv.DictReader(table):
            track = fixes.get(row["device"], [])
            index = len(track) if last_fix else bisect_right([item[0] for item in track], float(row["t"]))
            if index == 0:
                misses += 1
                continue
            _, x, y = track[index - 1]
            errors.append(((x - float(row["x"])) ** 2 + (y - float(row["y"])) ** 2) ** 0.5)
    if not errors:
        print(f"no truth row has a fix before it ({misses} misses)")
        return 1
    errors.sort()
    count = len(errors)
    median = errors[count // 2] if count % 2 else (errors[count // 2 - 1] + errors[count // 2]) / 2
    p90 = errors[min(count - 1, int(0.9 * count))]
    print(f"rows {count + misses}, scored {count}, misses {misses}, median {median:.3f} m, "
          f"mean {sum(errors) / count:.3f} m, p90 {p90:.3f} m")
    return 0


if __name__ == "__main__":
    sys.exit(main())
