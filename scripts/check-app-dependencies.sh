#!/usr/bin/env bash
# Shows that an app depending on the engine's products resolves and builds nothing else: it makes a throw-away
# client package in a temporary folder that depends on this repository's root package and imports every
# app-facing product, resolves it, builds it, and fails if any package but this one was resolved (no Hummingbird,
# GRDB, SwiftNIO, swift-crypto, swift-prometheus or swift-argument-parser).
# Usage: scripts/check-app-dependencies.sh [--no-build]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build=yes
if [ "${1:-}" = "--no-build" ]; then build=""; fi
client="$(mktemp -d "${TMPDIR:-/tmp}/indoor-client.XXXXXX")"
trap 'rm -rf "$client"' EXIT
products=(IndoorModel IndoorAdvertising IndoorRanging IndoorPositioning IndoorGeofencing IndoorSession IndoorCoreLocation)
mkdir -p "$client/Sources/Client"
{
    echo '// swift-tools-version: 6.0'
    echo 'import PackageDescription'
    echo 'let package = Package('
    echo '    name: "Client", platforms: [.macOS(.v14), .iOS(.v17)],'
    echo "    dependencies: [.package(name: \"Indoor\", path: \"$root\")],"
    echo '    targets: [.executableTarget(name: "Client", dependencies: ['
    for product in "${products[@]}"; do echo "        .product(name: \"$product\", package: \"Indoor\"),"; done
    echo '    ])])'
} > "$client/Package.swift"
{
    for product in "${products[@]}"; do echo "import $product"; done
    echo 'print(Venue.self, LocationSession.self)'
} > "$client/Sources/Client/main.swift"
echo "== a client package of the app-facing products: $client"
swift package --package-path "$client" resolve
others="$(swift package --package-path "$client" show-dependencies --format flatlist | grep -v -x -i -e indoor -e main -e "$(basename "$root")" || true)"
if [ -n "$others" ]; then
    echo "error: the app-facing products resolve other packages:" >&2
    echo "$others" >&2
    exit 1
fi
echo "resolved packages besides Indoor: none"
if [ -n "$build" ]; then
    swift build --package-path "$client" --scratch-path "$client/.build" 2>&1 | tail -1
    echo "built modules: $(ls "$client/.build/debug/Modules" 2> /dev/null | sed -n 's/\.swiftmodule$//p' | sort -u | tr '\n' ' ')"
fi
