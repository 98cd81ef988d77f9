#!/usr/bin/env bash
# Runs the README's server example ("For a venue: gateways and the server") as a user pastes it, in a new
# temporary folder, against BINARY (default Server/.build/debug/indoor) instead of building a release binary, on
# a free port instead of 8080. Fails when a command of the example fails or its answers lack the fix and check-in
# the README promises.
# Usage: scripts/ci/readme-server-example.sh [BINARY]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
binary="${1:-$root/Server/.build/debug/indoor}"
[ -x "$binary" ] || { echo "readme example: '$binary' not found: swift build --package-path Server --product indoor" >&2; exit 2; }
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
work="$(mktemp -d "${TMPDIR:-/tmp}/indoor-readme.XXXXXX")"
trap 'rm -rf "$work"' EXIT
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 - "$root/README.md" "$binary" "$port" > "$work/example.sh" <<'PY'
import sys
readme, binary, port = sys.argv[1:4]
text = open(readme, encoding="utf-8").read()
start = text.index("```sh", text.index("## For a venue")) + len("```sh\n")
block = text[start:text.index("```", start)]
lines = [line for line in block.splitlines() if not line.startswith("swift build ")]
script = "\n".join(lines) + "\n"
script = script.replace("indoor=Server/.build/release/indoor", f"indoor={binary}")
script = script.replace("serve --database", f"serve --port {port} --database").replace("127.0.0.1:8080", f"127.0.0.1:{port}")
print("set -euo pipefail")
print(script)
PY
cd "$work"
timeout 120 bash example.sh > output.txt 2> errors.txt || { cat output.txt errors.txt; echo "readme example: failed" >&2; exit 1; }
grep -q '"event":"checkIn"' output.txt || { cat output.txt; echo "readme example: no check-in in the answer" >&2; exit 1; }
# The phone hears n2 (x 20 m) alone: its fix lies within half a metre of it.
python3 -c 'import json, re, sys
xs = [float(m) for m in re.findall(r"\"x\":(-?[0-9.]+)", open("output.txt").read())]
sys.exit(0 if any(abs(x - 20) < 0.5 for x in xs) else 1)' || { cat output.txt; echo "readme example: no fix near x 20 in the answer" >&2; exit 1; }
grep -q '"visits":\[{' output.txt || { cat output.txt; echo "readme example: no visit in the activity" >&2; exit 1; }
echo "readme server example: passed (fix near x 20, check-in to East room, one open visit)"
