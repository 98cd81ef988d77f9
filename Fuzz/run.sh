#!/bin/sh
# Builds the libFuzzer target for the advertising decoders and runs it.
#
#   Fuzz/run.sh [SECONDS] [extra libFuzzer flags...]     (default 60 s)
#
# The IndoorModel and IndoorAdvertising sources are compiled with -sanitize=fuzzer,address into
# .build/fuzz/ (not a SwiftPM target, so `swift build` is unaffected). The corpus is kept in
# .build/fuzz/corpus; crashes are written to .build/fuzz/crash-*.
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-60}"
[ $# -gt 0 ] && shift
out=.build/fuzz
mkdir -p "$out/corpus"
# -Onone keeps the bounds checks of UnsafeRawBufferPointer subscripts, so reads past a slice trap too.
# -package-name: the modules share their `package` declarations, as SwiftPM builds them.
flags="-sanitize=fuzzer,address -parse-as-library -Onone -g -package-name Indoor"
swiftc $flags -module-name IndoorModel -emit-module -emit-module-path "$out/IndoorModel.swiftmodule" \
    -emit-library -static -o "$out/libIndoorModel.a" $(find Sources/IndoorModel -name "*.swift")
swiftc $flags -module-name IndoorAdvertising -I "$out" -emit-module -emit-module-path "$out/IndoorAdvertising.swiftmodule" \
    -emit-library -static -o "$out/libIndoorAdvertising.a" $(find Sources/IndoorAdvertising -name "*.swift")
swiftc $flags -I "$out" -L "$out" -lIndoorAdvertising -lIndoorModel -o "$out/fuzz-advertising" Fuzz/FuzzAdvertising.swift
echo "built $out/fuzz-advertising; fuzzing for $seconds s"
exec "$out/fuzz-advertising" -max_total_time="$seconds" -max_len=4096 -artifact_prefix="$out/" "$@" "$out/corpus" Fuzz/seeds
