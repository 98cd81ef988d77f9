#!/bin/sh
# Builds the libFuzzer target for the one-pass readers of JSON bytes and runs it: `POST /v1/sightings` bodies
# (SightingBatchReader) and gateways' MQTT payloads (JSONPayloadReader, checked against JSONDecoder).
#
#   Fuzz/run-sightings.sh [SECONDS] [extra libFuzzer flags...]     (default 60 s)
#
# The IndoorModel sources, the scanner and payload files of Server/Sources/IndoorGateways/Support and the reader's
# files of Server/Sources/IndoorServer/HTTP (plain Swift over bytes, no NIO or Hummingbird) are compiled with
# -sanitize=fuzzer,address into .build/fuzz-sightings/ (not SwiftPM targets). The corpus is kept in
# .build/fuzz-sightings/corpus; crashes are written to .build/fuzz-sightings/crash-*.
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-60}"
[ $# -gt 0 ] && shift
out=.build/fuzz-sightings
mkdir -p "$out/corpus"
# -Onone keeps the bounds checks of UnsafeRawBufferPointer subscripts, so reads past the body trap too.
# -package-name: the modules share their `package` declarations, as SwiftPM builds them.
flags="-sanitize=fuzzer,address -parse-as-library -Onone -g -package-name Indoor"
http=Server/Sources/IndoorServer/HTTP
json=Server/Sources/IndoorGateways/Support
swiftc $flags -module-name IndoorModel -emit-module -emit-module-path "$out/IndoorModel.swiftmodule" \
    -emit-library -static -o "$out/libIndoorModel.a" $(find Sources/IndoorModel -name "*.swift")
swiftc $flags -module-name IndoorGateways -emit-module -emit-module-path "$out/IndoorGateways.swiftmodule" \
    -emit-library -static -o "$out/libIndoorGateways.a" "$json/JSONByteScanner.swift" "$json/JSONBodySyntaxError.swift" \
    "$json/JSONValue.swift" "$json/JSONPayloadReader.swift"
swiftc $flags -module-name IndoorServer -I "$out" -emit-module -emit-module-path "$out/IndoorServer.swiftmodule" \
    -emit-library -static -o "$out/libIndoorServer.a" "$http/SightingBatchReader.swift" "$http/BatchBodyError.swift" \
    "$http/ItemError.swift"
swiftc $flags -I "$out" -L "$out" -lIndoorServer -lIndoorGateways -lIndoorModel -o "$out/fuzz-sightings" \
    Fuzz/FuzzSightingBatch.swift
echo "built $out/fuzz-sightings; fuzzing for $seconds s"
exec "$out/fuzz-sightings" -max_total_time="$seconds" -max_len=4096 -artifact_prefix="$out/" "$@" "$out/corpus" \
    Fuzz/seeds-sightings
