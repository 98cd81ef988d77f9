#!/usr/bin/env bash
# Property-based check of `indoor serve` against its own OpenAPI document, with schemathesis.
#
#   scripts/ci/schemathesis.sh [BINARY]        (default Server/.build/debug/indoor)
#
# Starts `indoor serve --demo --port 0` on a fresh temporary database with a known admin key, then runs
# schemathesis on http://127.0.0.1:PORT/openapi.json with that key: every operation but the endless
# Server-Sent Events stream, a fixed seed (SCHEMATHESIS_SEED to change it), a few examples per operation and a
# time budget. Checks: no 5xx, status codes, content types and bodies as the document says. Stops the server by
# its pid. Exit status: schemathesis's (0 when every check passed); 2 when schemathesis is not installed.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
binary="${1:-$root/Server/.build/debug/indoor}"
case "$binary" in /*) ;; *) binary="$PWD/$binary" ;; esac
# The console script, on PATH or beside the python3 that has the package (pyenv's shims may not list it yet).
st="$(command -v schemathesis || true)"
if [ -z "$st" ]; then
    st="$(python3 -c 'import os, sys; print(os.path.join(os.path.dirname(sys.executable), "schemathesis"))' 2> /dev/null || true)"
fi
[ -n "$st" ] && [ -x "$st" ] || { echo "schemathesis: not installed (pip install schemathesis)" >&2; exit 2; }
[ -x "$binary" ] || { echo "schemathesis: '$binary' not found: swift build --package-path Server --product indoor" >&2; exit 2; }

work=$(mktemp -d)
server=""
cleanup() {
    if [ -n "$server" ] && kill -0 "$server" 2> /dev/null; then
        kill -TERM "$server" 2> /dev/null || true
        wait "$server" 2> /dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

admin="schemathesis-admin-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
"$binary" serve --demo --port 0 --database "$work/api.sqlite" --admin-key "$admin" --log-level error \
    > "$work/server.out" 2> "$work/server.err" &
server=$!
address=""
for _ in $(seq 1 300); do
    address=$(sed -n 's/^Indoor server listening on \(http:[^ ]*\).*/\1/p' "$work/server.out")
    [ -n "$address" ] && break
    kill -0 "$server" 2> /dev/null || { cat "$work/server.err" >&2; echo "schemathesis: the server exited" >&2; exit 1; }
    sleep 0.1
done
[ -n "$address" ] || { echo "schemathesis: the server printed no address within 30 s" >&2; exit 1; }
echo "schemathesis $("$st" --version 2>/dev/null | tail -1) against $address (server pid $server)"

# POST /v1/webhooks is left out: a hook made with a generated public address would POST the demo's events to it,
# off this machine (the routes' refusals are tested in WebhookTests).
# run NAME [schemathesis options…]: one bounded schemathesis pass from the temporary folder (its reports stay there).
run() {
    local name="$1"
    shift
    echo "== schemathesis: $name"
    (
        cd "$work"
        exec timeout 600 "$st" "$@" run "$address/openapi.json" \
            --header "Authorization: Bearer $admin" \
            --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
            --exclude-path /v1/stream \
            --exclude-operation-id newWebhook \
            --phases examples,coverage,fuzzing \
            --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-25}" \
            --seed "${SCHEMATHESIS_SEED:-20251122}" \
            --request-timeout 10 \
            --workers 1 \
            --generation-database none \
            --no-color \
            "${pass_options[@]}"
    )
}
status=0
# Pass 1: random ids (unknown venues and devices, every operation, DELETE included).
pass_options=()
run "random ids" || status=$?
# Pass 2: the demo venue's ids (scripts/ci/schemathesis.toml), so requests reach the handlers; no DELETE, which
# would remove the venue the rest of the pass needs.
pass_options=(--exclude-method DELETE)
run "the demo venue's ids" --config-file "$root/scripts/ci/schemathesis.toml" || status=$?
if ! kill -0 "$server" 2> /dev/null; then
    echo "schemathesis: the server died during the run; its stderr:" >&2
    tail -40 "$work/server.err" >&2
    exit 1
fi
exit "$status"
