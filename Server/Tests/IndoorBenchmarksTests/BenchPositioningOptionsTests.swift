import Testing

@testable import IndoorBenchmarks

@Suite("indoor bench positioning options")
struct BenchPositioningOptionsTests {
    /// A billion devices would allocate tens of gigabytes before failing; a NaN or huge --seconds never ends.
    @Test(arguments: [
        ["--devices", "0"], ["--devices", "2000000000"], ["--seconds", "0"], ["--seconds", "nan"],
        ["--seconds", "1e9"],
    ])
    func outOfRangeOptionsAreRefusedBeforeRunning(arguments: [String]) {
        #expect(throws: (any Error).self) { try BenchPositioningCommand.parse(arguments) }
    }

    @Test func theDefaultsAndTheLimitsAreAccepted() throws {
        let defaults = try BenchPositioningCommand.parse([])
        #expect(defaults.devices == 2000 && defaults.seconds == 0.5)
        let limits = try BenchPositioningCommand.parse(["--devices", "1000000", "--seconds", "600"])
        #expect(limits.devices == 1_000_000 && limits.seconds == 600)
    }

    @Test func theFingerprintGridNeedsAPositiveSpacing() {
        let workload = PositioningWorkload(devices: 1, seed: 1)
        #expect(workload.fingerprintGrid(spacing: 2).count == 21 * 16)
        for spacing in [0.0, -1, .nan, .infinity] { #expect(workload.fingerprintGrid(spacing: spacing).isEmpty) }
    }
}
