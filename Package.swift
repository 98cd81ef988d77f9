// swift-tools-version: 6.0
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Indoor",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "IndoorModel", targets: ["IndoorModel"]),
        .library(name: "IndoorAdvertising", targets: ["IndoorAdvertising"]),
        .library(name: "IndoorRanging", targets: ["IndoorRanging"]),
        .library(name: "IndoorPositioning", targets: ["IndoorPositioning"]),
        .library(name: "IndoorGeofencing", targets: ["IndoorGeofencing"]),
        .library(name: "IndoorSession", targets: ["IndoorSession"]),
        .library(name: "IndoorEvaluation", targets: ["IndoorEvaluation"]),
        .library(name: "IndoorCoreLocation", targets: ["IndoorCoreLocation"]),
    ],
    targets: [
        // Value types and documented file formats. Foundation only.
        .target(name: "IndoorModel", swiftSettings: strict),
        // Bytes to sightings: AD structures, beacon frames, HCI reports, btsnoop.
        .target(name: "IndoorAdvertising", dependencies: ["IndoorModel"], swiftSettings: strict),
        // The one RSSI stack: filters, distance models, the RSSI at 1 m, proximity classes, the ranger.
        .target(name: "IndoorRanging", dependencies: ["IndoorModel"], swiftSettings: strict),
        // Calibration, solvers, trackers and the positioning engine.
        .target(name: "IndoorPositioning", dependencies: ["IndoorModel", "IndoorRanging"], swiftSettings: strict),
        // Region monitoring, zones, geolines, peers.
        .target(name: "IndoorGeofencing", dependencies: ["IndoorModel", "IndoorRanging"], swiftSettings: strict),
        // The one pipeline every front end uses: sightings in; fixes, zone, monitoring and peer events out.
        .target(
            name: "IndoorSession",
            dependencies: ["IndoorModel", "IndoorRanging", "IndoorPositioning", "IndoorGeofencing"],
            swiftSettings: strict),
        // The Apple adapter: CoreLocation ranging and monitoring in, the session's answers out. Its decisions are
        // platform-free (built and tested everywhere); the CoreLocation shell compiles only where CoreLocation
        // exists, and on Linux in IndoorCoreLocationShellTests against CoreLocationShim.
        .target(
            name: "IndoorCoreLocation", dependencies: ["IndoorModel", "IndoorSession"], swiftSettings: strict),
        // Dataset reader, simulator, scoring, plots.
        .target(
            name: "IndoorEvaluation", dependencies: ["IndoorModel", "IndoorPositioning", "IndoorGeofencing"],
            swiftSettings: strict),

        // Test helpers shared by the test targets: where the repository's datasets and documents are.
        .target(name: "IndoorTestSupport", path: "Tests/IndoorTestSupport", swiftSettings: strict),
        .testTarget(
            name: "IndoorModelTests", dependencies: ["IndoorTestSupport", "IndoorModel"],
            // IMDF archives as folders of GeoJSON, read by path (RepositoryFiles), also by the server's tests.
            exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(name: "IndoorAdvertisingTests", dependencies: ["IndoorAdvertising"], swiftSettings: strict),
        .testTarget(name: "IndoorRangingTests", dependencies: ["IndoorRanging"], swiftSettings: strict),
        .testTarget(
            name: "IndoorPositioningTests", dependencies: ["IndoorTestSupport", "IndoorRanging", "IndoorPositioning"],
            swiftSettings: strict),
        .testTarget(
            name: "IndoorGeofencingTests",
            dependencies: ["IndoorTestSupport", "IndoorRanging", "IndoorGeofencing", "IndoorEvaluation"],
            swiftSettings: strict),
        .testTarget(
            name: "IndoorSessionTests",
            dependencies: [
                "IndoorTestSupport", "IndoorSession", "IndoorRanging", "IndoorPositioning", "IndoorEvaluation",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "IndoorCoreLocationTests", dependencies: ["IndoorCoreLocation", "IndoorSession"],
            swiftSettings: strict),
        // Exactly the CoreLocation API the shell uses, so that Linux CI type-checks it (test-only; not a product).
        .target(name: "CoreLocationShim", path: "Tests/CoreLocationShim", swiftSettings: strict),
        // The shell's source (a symbolic link to Sources/IndoorCoreLocation/CoreLocationShell.swift) compiled
        // against the shim.
        .testTarget(
            name: "IndoorCoreLocationShellTests",
            dependencies: ["IndoorCoreLocation", "IndoorSession", "IndoorModel", "CoreLocationShim"],
            swiftSettings: strict + [.define("INDOOR_CORELOCATION_SHIM")]),
        .testTarget(
            name: "IndoorEvaluationTests", dependencies: ["IndoorTestSupport", "IndoorEvaluation", "IndoorGeofencing"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
