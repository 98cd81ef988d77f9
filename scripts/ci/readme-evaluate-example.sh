#!/usr/bin/env bash
# Runs the README's accuracy example ("On your own data: measuring accuracy") as a user pastes it, from the
# repository's root, with its /tmp paths moved into a new temporary folder. The release build it needs is made
# first (minutes on a first build; a debug build would learn the survey for minutes instead). Fails when a command
# fails, when a table lacks the rows the README describes, or when the default's median on kolakowski-flat differs
# from the figure in the README's table.
# Usage: scripts/ci/readme-evaluate-example.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
work="$(mktemp -d "${TMPDIR:-/tmp}/indoor-readme-evaluate.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "readme evaluate example: swift build -c release --package-path Server --product indoor"
swift build -c release --package-path Server --product indoor > "$work/build.txt" 2>&1 \
    || { tail -40 "$work/build.txt"; echo "readme evaluate example: the release build failed" >&2; exit 1; }

python3 - "$root/README.md" "$work" > "$work/example.sh" <<'PY'
import sys
readme, work = sys.argv[1:3]
text = open(readme, encoding="utf-8").read()
start = text.index("```sh", text.index("## On your own data")) + len("```sh\n")
block = text[start:text.index("```", start)]
commands = [line.split("  #")[0].rstrip() for line in block.splitlines() if line.strip()]
if len(commands) != 3:
    sys.exit(f"readme evaluate example: expected 3 commands in the README's block, found {len(commands)}")
print("set -euo pipefail")
for number, command in enumerate(commands, start=1):
    print(f"{command.replace('/tmp/', work + '/')} > {work}/out{number}.txt 2> {work}/err{number}.txt")
PY

timeout 1200 bash "$work/example.sh" || {
    for number in 1 2 3; do cat "$work/out$number.txt" "$work/err$number.txt" 2> /dev/null || true; done
    echo "readme evaluate example: a command failed" >&2
    exit 1
}

python3 - "$root/README.md" "$work" <<'PY'
import os, re, sys
readme, work = sys.argv[1:3]

def fail(message, output=None):
    if output is not None:
        print(output)
    sys.exit(f"readme evaluate example: {message}")

def rows(path):
    """The table rows of an `indoor evaluate` output: method name to its columns."""
    text = open(path, encoding="utf-8").read()
    lines = text.splitlines()
    header = next((i for i, line in enumerate(lines) if line.startswith("method ")), None)
    if header is None:
        fail(f"{os.path.basename(path)} has no table", text)
    # Columns: method, count, misses, mean m, median m, … (the headers' units are words of their own).
    table = {}
    for line in lines[header + 1:]:
        cells = line.split()
        if len(cells) < 5 or not cells[1].isdigit():
            break
        table[cells[0]] = {"count": cells[1], "misses": cells[2], "median": cells[4]}
    return table, text

first, text = rows(f"{work}/out1.txt")
if sorted(first) != ["auto", "knn"]:
    fail(f"the kolakowski-flat table has rows {sorted(first)}, the README asks for auto and knn", text)
for method, row in first.items():
    if row["count"] != "1026" or row["misses"] != "0":
        fail(f"{method}: {row['count']} rows, {row['misses']} misses (expected 1026 rows, no miss)", text)
figure = re.search(r"median error of the default, kolakowski-flat \| ([0-9.]+) m", open(readme, encoding="utf-8").read())
if figure is None:
    fail("the README's figures table has no kolakowski-flat row")
if f"{float(first['auto']['median']):.2f}" != f"{float(figure.group(1)):.2f}":
    fail(f"auto's median on kolakowski-flat is {first['auto']['median']} m, the README says {figure.group(1)} m", text)

for name in ["venue.json", "nodes.csv", "train/sightings.csv", "train/truth.csv", "test/sightings.csv", "test/truth.csv"]:
    if not os.path.isfile(f"{work}/office/{name}"):
        fail(f"indoor simulate wrote no office/{name}")

third, text = rows(f"{work}/out3.txt")
for method in ["auto", "knn", "weighted-centroid", "nonlinear"]:
    if method not in third:
        fail(f"the simulated office's table has no {method} row", text)
plot = open(f"{work}/office.svg", encoding="utf-8").read()
if "<svg" not in plot or "auto" not in plot:
    fail("the plot is not an SVG naming the methods")
print(f"readme evaluate example: passed (kolakowski-flat: auto {first['auto']['median']} m, knn "
      f"{first['knn']['median']} m at the median; simulated office: {len(third)} methods, plot written)")
PY
