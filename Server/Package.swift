// swift-tools-version: 6.0
import PackageDescription

// The location server, the `indoor` command and the benchmarks: a package of their own, so that an app that
// depends on the engine's products (the package in the repository's root) neither resolves nor builds
// Hummingbird, GRDB, SwiftNIO, swift-crypto, swift-prometheus or swift-argument-parser.
// macOS 15: the server's locks are `Synchronization.Mutex`, which needs it.

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let indoor: [Target.Dependency] = [
    .product(name: "IndoorModel", package: "Indoor"),
    .product(name: "IndoorAdvertising", package: "Indoor"),
    .product(name: "IndoorRanging", package: "Indoor"),
    .product(name: "IndoorPositioning", package: "Indoor"),
    .product(name: "IndoorGeofencing", package: "Indoor"),
    .product(name: "IndoorSession", package: "Indoor"),
    .product(name: "IndoorEvaluation", package: "Indoor"),
]

let package = Package(
    name: "IndoorServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "indoor", targets: ["indoor"]),
        .executable(name: "indoor-bench", targets: ["indoor-bench"]),
    ],
    dependencies: [
        .package(name: "Indoor", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // The location server: HTTP API, SQLite or PostgreSQL store, keys, live stream, map. Every request goes through the session.
        .target(
            name: "IndoorServer",
            dependencies: indoor + [
                "IndoorMQTT", "IndoorGateways", "IndoorArchive",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C functions, for the store's hot inserts (`SQLiteBindings`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // package.json only tells node (`node --test`, Server/Tests/map) that the map's .js files are ES modules.
            exclude: ["Resources/package.json"],
            resources: [
                // The map (the page, its style and its script modules, served by `MapAssets`) and the OpenAPI document,
                // embedded in the binary: `indoor serve` needs no file beside it.
                .embedInCode("Resources/map.html"), .embedInCode("Resources/map.css"),
                .embedInCode("Resources/main.js"), .embedInCode("Resources/api.js"),
                .embedInCode("Resources/address-key.js"), .embedInCode("Resources/state.js"),
                .embedInCode("Resources/geometry.js"), .embedInCode("Resources/layout.js"),
                .embedInCode("Resources/format.js"), .embedInCode("Resources/view.js"),
                .embedInCode("Resources/zoom.js"), .embedInCode("Resources/labels.js"),
                .embedInCode("Resources/plan.js"), .embedInCode("Resources/floor-image.js"),
                .embedInCode("Resources/activity.js"), .embedInCode("Resources/stream.js"),
                .embedInCode("Resources/viewer.js"), .embedInCode("Resources/drawers.js"),
                .embedInCode("Resources/editor.js"), .embedInCode("Resources/editor-state.js"),
                .embedInCode("Resources/editor-form.js"), .embedInCode("Resources/editor-items.js"),
                .embedInCode("Resources/editor-anchor.js"), .embedInCode("Resources/editor-image.js"),
                .embedInCode("Resources/editor-pointer.js"), .embedInCode("Resources/editor-save.js"),
                .embedInCode("Resources/editor-paint.js"), .embedInCode("Resources/survey.js"),
                .embedInCode("Resources/survey-plan.js"), .embedInCode("Resources/history.js"),
                .embedInCode("Resources/history-plan.js"), .embedInCode("Resources/report.js"),
                .embedInCode("Resources/openapi.json"),
            ],
            swiftSettings: strict
        ),
        // Zip archives read within bounds (stored and deflate entries, inflated by the system zlib), and IMDF venues
        // imported from them: for `indoor venue import` and `PUT /v1/venues/{id}` with a zip body.
        .target(
            name: "IndoorArchive",
            dependencies: ["CZlib", .product(name: "IndoorModel", package: "Indoor")],
            swiftSettings: strict
        ),
        // The system zlib (zlib1g-dev; in the SDK on macOS).
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // What BLE gateways publish over MQTT (ESPresense, Theengs Gateway, OpenMQTTGateway) read as sightings, and
        // Bluetooth resolvable private addresses resolved with identity resolving keys. No networking here.
        .target(
            name: "IndoorGateways",
            dependencies: [
                .product(name: "IndoorModel", package: "Indoor"),
                .product(name: "IndoorAdvertising", package: "Indoor"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // An MQTT 3.1.1 / 5 client on SwiftNIO: the codec over plain bytes (fuzzed on its own, Fuzz/run-mqtt.sh),
        // and a client that delivers messages in batches and acknowledges them once the handler has returned.
        .target(
            name: "IndoorMQTT",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The command-line front end as a library, so its output can be tested in-process.
        .target(
            name: "IndoorCommands",
            dependencies: indoor + [
                "IndoorServer", "IndoorMQTT", "IndoorGateways", "IndoorArchive",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "indoor", dependencies: ["IndoorCommands"], swiftSettings: strict),

        // The benchmarks' references: a plain Gauss–Newton and a plain particle-filter update in C, for
        // `indoor-bench positioning`'s ratios.
        .target(name: "CGaussNewton"),
        .target(name: "CParticleFilter"),
        // Throughput benchmarks on standard workloads (`indoor-bench positioning | decode | zones | mqtt-publish`).
        .target(
            name: "IndoorBenchmarks",
            dependencies: indoor + [
                "CGaussNewton", "CParticleFilter", "IndoorCommands", "IndoorMQTT", "IndoorServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "indoor-bench", dependencies: ["IndoorBenchmarks"], swiftSettings: strict),

        // Test helpers shared by the test targets: where the repository's datasets and documents are.
        .target(
            name: "IndoorServerTestSupport", dependencies: ["IndoorArchive"], path: "Tests/IndoorServerTestSupport",
            swiftSettings: strict),
        .testTarget(
            name: "IndoorServerTests",
            dependencies: indoor + [
                "IndoorServer", "IndoorServerTestSupport", "IndoorMQTT", "IndoorGateways", "IndoorArchive",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "IndoorMQTTTests", dependencies: ["IndoorMQTT", "IndoorServerTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "IndoorArchiveTests",
            dependencies: [
                "IndoorArchive", "IndoorServerTestSupport", .product(name: "IndoorModel", package: "Indoor"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "IndoorGatewaysTests",
            dependencies: [
                "IndoorGateways",
                .product(name: "IndoorModel", package: "Indoor"),
                .product(name: "IndoorAdvertising", package: "Indoor"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "IndoorCommandsTests",
            dependencies: indoor + ["IndoorCommands", "IndoorBenchmarks", "IndoorServerTestSupport", "IndoorArchive"],
            swiftSettings: strict),
        .testTarget(
            name: "IndoorBenchmarksTests",
            dependencies: indoor + ["IndoorBenchmarks", "IndoorCommands", "IndoorServerTestSupport"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
