#!/usr/bin/env bash
# Shows that an app depending on the engine's products resolves and builds nothing else, and that what the documents
# promise an app works through the products' public API alone. Tests/AppSide is such an app's package: it depends on
# this repository's root package by path (so the root's `package` declarations are invisible to it, as to an app) and
# imports every app-facing product. This resolves it, fails if any package but this one was resolved (no Hummingbird,
# GRDB, SwiftNIO, swift-crypto, swift-prometheus or swift-argument-parser), then builds it and runs its tests: one per
# promise to an app, and the DocC catalogs' examples compiled as written (docs/notes/public-surface.md).
# Usage: scripts/check-app-dependencies.sh [--no-build]   (--no-build: resolve and check the dependencies only)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build=yes
if [ "${1:-}" = "--no-build" ]; then build=""; fi
client="$root/Tests/AppSide"
products=(IndoorModel IndoorAdvertising IndoorRanging IndoorPositioning IndoorGeofencing IndoorSession IndoorCoreLocation)
for product in "${products[@]}"; do
    if ! grep -q "\.product(name: \"$product\", package: \"Indoor\")" "$client/Package.swift"; then
        echo "error: Tests/AppSide/Package.swift does not depend on the product $product" >&2
        exit 1
    fi
done
echo "== the app-side package of the app-facing products: $client"
swift package --package-path "$client" resolve
others="$(swift package --package-path "$client" show-dependencies --format flatlist | grep -v -x -i -e indoor -e appside -e main -e "$(basename "$root")" || true)"
if [ -n "$others" ]; then
    echo "error: the app-facing products resolve other packages:" >&2
    echo "$others" >&2
    exit 1
fi
echo "resolved packages besides Indoor: none"
if [ -n "$build" ]; then
    swift test --package-path "$client"
fi
