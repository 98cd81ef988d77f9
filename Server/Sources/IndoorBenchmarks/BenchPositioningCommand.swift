import ArgumentParser
import Foundation
import IndoorModel
import IndoorPositioning

/// `indoor-bench positioning`: solver and engine throughput, and the nonlinear solver against the Cramér–Rao bound.
struct BenchPositioningCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "positioning",
        abstract:
            "Fixes per second of each solver, sightings per second through the engine, and efficiency vs the Cramér–Rao bound.",
        discussion: """
            Workload: 24 nodes on a 6 × 4 grid spanning 40 m × 30 m at z = 2.5 m; devices uniformly placed at z = 1.2 m; \
            each hears its 8 nearest nodes at −59 dBm at 1 m, exponent 2, shadowing σ = 4 dB (seeded). \
            knn matches against a noise-free fingerprint grid of 2 m (336 fingerprints). Numbers are per core \
            (one thread). Build with `-c release`.
            """)

    @Option(help: "Number of device positions (1 to 1000000).")
    var devices = 2000

    @Option(help: "Seed of the workload's generator.")
    var seed: UInt64 = 1

    @Option(help: "Minimum seconds spent measuring each number (at most 600).")
    var seconds = 0.5

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Flag(help: "Measure only the engine (for profiling); solver rates are reported as 0.")
    var engineOnly = false

    func validate() throws {
        guard devices > 0, devices <= 1_000_000 else {
            throw ValidationError("--devices must be between 1 and 1000000 (got \(devices))")
        }
        guard seconds > 0, seconds <= 600 else {
            throw ValidationError("--seconds must be more than 0 and at most 600 (got \(seconds))")
        }
    }

    func run() throws {
        let report = PositioningBenchReport.measure(
            devices: devices, seed: seed, seconds: seconds, solvers: !engineOnly)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text)
        }
    }
}
