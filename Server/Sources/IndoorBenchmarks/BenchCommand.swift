import ArgumentParser

/// `indoor-bench`: throughput benchmarks. Build with `-c release` for meaningful numbers.
public struct BenchCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "indoor-bench",
        abstract: "Measure throughput on standard workloads (run with `swift run -c release`).",
        subcommands: [
            BenchPositioningCommand.self, BenchDecodeCommand.self, BenchZonesCommand.self, BenchMQTTPublishCommand.self,
            BenchIngestCommand.self, BenchHistoryCommand.self,
        ]
    )

    public init() {}
}
