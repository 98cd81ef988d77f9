import Foundation
import Testing

/// Tests that learn a radio map from a survey or run a long simulation: seconds in a release build, minutes in a
/// debug one. They run when `INDOOR_RELEASE_TESTS` is set, as `scripts/test` does in its release-build step (which
/// runs the whole engine suite optimised); a plain `swift test` skips them and says where they run.
public enum ReleaseBuild {
    /// Whether this run takes the release-build tests (`INDOOR_RELEASE_TESTS` is set).
    public static var isEnabled: Bool { ProcessInfo.processInfo.environment["INDOOR_RELEASE_TESTS"] != nil }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only in the release-build run (``ReleaseBuild``); skipped elsewhere with a comment saying so.
    public static var releaseBuild: Self {
        .enabled(
            if: ReleaseBuild.isEnabled,
            "minutes in a debug build: runs in scripts/test's release step (INDOOR_RELEASE_TESTS=1 swift test -c release -Xswiftc -enable-testing)"
        )
    }
}
