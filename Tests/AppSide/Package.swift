// swift-tools-version: 6.0
import PackageDescription

// An app's view of the engine: a package of its own that depends on the repository's root package by path, as an
// app depends on it, so that its tests see the products' `public` API only (no `package` symbol of the root, no
// `@testable`). Each test in Tests/AppSideTests does what the documents promise an app, and the DocC catalogs'
// examples are compiled here as written (docs/notes/public-surface.md). Run by scripts/test:
// `swift test --package-path Tests/AppSide`.

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "AppSide",
    platforms: [.macOS(.v15), .iOS(.v18)],  // the tests' manual clock uses `Synchronization.Mutex`
    dependencies: [.package(name: "Indoor", path: "../..")],
    targets: [
        // The CoreLocation API the shell uses, declared for Linux (a symbolic link to Tests/CoreLocationShim).
        .target(name: "CoreLocationShim", swiftSettings: strict),
        // The Apple shell of IndoorCoreLocation (a symbolic link to its source) compiled against the shim, as a
        // module outside the root package: it builds from the products' public API alone, and the iOS article's
        // examples that use it compile on Linux.
        .target(
            name: "CoreLocationShell",
            dependencies: [
                "CoreLocationShim",
                .product(name: "IndoorModel", package: "Indoor"),
                .product(name: "IndoorSession", package: "Indoor"),
                .product(name: "IndoorCoreLocation", package: "Indoor"),
            ],
            swiftSettings: strict + [.define("INDOOR_CORELOCATION_SHIM")]),
        .testTarget(
            name: "AppSideTests",
            dependencies: [
                .product(name: "IndoorModel", package: "Indoor"),
                .product(name: "IndoorAdvertising", package: "Indoor"),
                .product(name: "IndoorRanging", package: "Indoor"),
                .product(name: "IndoorPositioning", package: "Indoor"),
                .product(name: "IndoorGeofencing", package: "Indoor"),
                .product(name: "IndoorSession", package: "Indoor"),
                .product(name: "IndoorCoreLocation", package: "Indoor"),
                .target(name: "CoreLocationShim", condition: .when(platforms: [.linux])),
                .target(name: "CoreLocationShell", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
