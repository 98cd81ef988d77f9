import ArgumentParser

/// `indoor bench`: throughput benchmarks. Build with `-c release` for meaningful numbers.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure throughput on standard workloads (run with `swift run -c release`).",
        subcommands: [BenchPositioningCommand.self, BenchDecodeCommand.self, BenchZonesCommand.self]
    )
}
