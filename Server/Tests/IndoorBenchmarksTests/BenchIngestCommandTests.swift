import Testing

@testable import IndoorBenchmarks

@Suite("indoor bench ingest")
struct BenchIngestCommandTests {
    @Test(arguments: [
        ["--devices", "0"], ["--batch", "0"], ["--seconds", "-1"], ["--repeat", "0"], ["--duration", "0"],
    ])
    func rejectsSizes(arguments: [String]) {
        #expect(throws: (any Error).self) { try BenchCommand.parseAsRoot(["ingest"] + arguments) }
    }

    @Test func aSmallRunMeasuresEveryPart() throws {
        let command = try #require(
            try BenchCommand.parseAsRoot([
                "ingest", "--devices", "2", "--duration", "20", "--batch", "50", "--seconds", "0.05", "--repeat", "1",
            ]) as? BenchIngestCommand)
        let result = try command.measure()
        #expect(result.sightings > 0)
        #expect(result.sessionSightings >= 50)
        #expect(result.sessionSightingsPerSecond > 0)
        // Both decoders read every sighting of the bodies (measure throws otherwise).
        #expect(result.decoders.map(\.name) == ["JSONDecoder (SightingBatch)", "one pass (SightingBatchReader)"])
        #expect(result.sqlite.map(\.rowsPerInsert) == [1, 100])
        #expect(result.sqlite.allSatisfy { $0.sightingsPerSecond > 0 })
    }
}
