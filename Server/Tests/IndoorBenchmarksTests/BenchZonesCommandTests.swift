import Testing

@testable import IndoorBenchmarks

@Suite("indoor bench zones")
struct BenchZonesCommandTests {
    @Test(
        "sizes that do not fit in memory, or overflow, are rejected before any fix is generated",
        arguments: [
            ["--devices", "9223372036854775807", "--seconds", "2"],
            ["--devices", "100000001", "--seconds", "1"],
            ["--devices", "10000", "--seconds", "10001"],
            ["--zones", "1000001"],
            ["--devices", "0"],
            ["--seconds", "-1"],
        ])
    func rejectsSizes(arguments: [String]) {
        #expect(throws: (any Error).self) { try BenchCommand.parseAsRoot(["zones"] + arguments) }
    }

    @Test("the largest accepted run parses")
    func acceptsLimit() throws {
        let command = try BenchCommand.parseAsRoot([
            "zones", "--devices", "1000000", "--seconds", "100", "--zones", "1000000",
        ])
        #expect(command is BenchZonesCommand)
    }
}
