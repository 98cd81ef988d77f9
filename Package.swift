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
        .library(name: "IndoorServer", targets: ["IndoorServer"]),
        .executable(name: "indoor", targets: ["indoor"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
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
        // The location server: HTTP API, SQLite store, keys, live stream, map. Every request goes through the session.
        .target(
            name: "IndoorServer",
            dependencies: [
                "IndoorModel", "IndoorSession", "IndoorGeofencing", "IndoorEvaluation",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // The benchmark's reference: a plain Gauss–Newton in C, for `indoor bench positioning`'s ratio.
        .target(name: "CGaussNewton"),
        // The command-line front end as a library, so its output can be tested in-process.
        .target(
            name: "IndoorCommands",
            dependencies: [
                "CGaussNewton", "IndoorModel", "IndoorAdvertising", "IndoorRanging", "IndoorPositioning",
                "IndoorGeofencing",
                "IndoorSession",
                "IndoorEvaluation",
                "IndoorServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "indoor", dependencies: ["IndoorCommands"], swiftSettings: strict),

        .testTarget(name: "IndoorModelTests", dependencies: ["IndoorModel"], swiftSettings: strict),
        .testTarget(name: "IndoorAdvertisingTests", dependencies: ["IndoorAdvertising"], swiftSettings: strict),
        .testTarget(name: "IndoorRangingTests", dependencies: ["IndoorRanging"], swiftSettings: strict),
        .testTarget(
            name: "IndoorPositioningTests", dependencies: ["IndoorRanging", "IndoorPositioning"], swiftSettings: strict),
        .testTarget(
            name: "IndoorGeofencingTests", dependencies: ["IndoorRanging", "IndoorGeofencing"], swiftSettings: strict),
        .testTarget(
            name: "IndoorSessionTests",
            dependencies: ["IndoorSession", "IndoorRanging", "IndoorPositioning", "IndoorEvaluation"],
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
            name: "IndoorEvaluationTests", dependencies: ["IndoorEvaluation", "IndoorGeofencing"], swiftSettings: strict
        ),
        .testTarget(
            name: "IndoorServerTests",
            dependencies: [
                "IndoorServer", "IndoorModel", "IndoorSession",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "IndoorCommandsTests",
            dependencies: [
                "IndoorCommands", "IndoorAdvertising", "IndoorRanging", "IndoorPositioning", "IndoorGeofencing",
            ],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
