#!/bin/sh
# Builds the libFuzzer target for the MQTT codec and runs it.
#
#   Fuzz/run-mqtt.sh [SECONDS] [extra libFuzzer flags...]     (default 60 s)
#
# Only the codec's sources (Server/Sources/IndoorMQTT/Codec, plain Swift over bytes, no NIO) are compiled,
# with -sanitize=fuzzer,address, into .build/fuzz-mqtt/ (not a SwiftPM target, so `swift build` is
# unaffected). The corpus is kept in .build/fuzz-mqtt/corpus; crashes are written to .build/fuzz-mqtt/crash-*.
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-60}"
[ $# -gt 0 ] && shift
out=.build/fuzz-mqtt
mkdir -p "$out/corpus"
# -Onone keeps the bounds checks of slice subscripts, so reads past a slice trap too.
flags="-sanitize=fuzzer,address -parse-as-library -Onone -g"
swiftc $flags -module-name IndoorMQTT -emit-module -emit-module-path "$out/IndoorMQTT.swiftmodule" \
    -emit-library -static -o "$out/libIndoorMQTT.a" $(find Server/Sources/IndoorMQTT/Codec -name "*.swift")
swiftc $flags -I "$out" -L "$out" -lIndoorMQTT -o "$out/fuzz-mqtt" Fuzz/FuzzMQTT.swift
echo "built $out/fuzz-mqtt; fuzzing for $seconds s"
exec "$out/fuzz-mqtt" -max_total_time="$seconds" -max_len=4096 -artifact_prefix="$out/" "$@" "$out/corpus" Fuzz/seeds-mqtt
