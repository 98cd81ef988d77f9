import Foundation
import IndoorServer
import IndoorServerTestSupport
import Testing

@testable import IndoorBenchmarks

/// `indoor-bench history` at a small size: it fills the store with what it says, reads all of it back, and reuses
/// a filled store. It times, but nothing here asserts on a time.
@Suite("indoor bench history")
struct BenchHistoryCommandTests {
    @Test(arguments: [
        ["--days", "0"], ["--days", "400"], ["--devices", "0"], ["--zones", "0"], ["--repeat", "0"],
        ["--postgres-only"],
    ])
    func rejectsSizes(arguments: [String]) {
        #expect(throws: (any Error).self) { try BenchCommand.parseAsRoot(["history"] + arguments) }
    }

    /// Checks what a store measured at 0.1 day (8640 s) of 3 devices in 4 rooms.
    static func check(_ result: BenchHistoryCommand.StoreResult, filled: Bool) {
        #expect(result.filled == filled)
        if filled {
            #expect(result.fixes == 3 * 8640)
            #expect((result.zoneEvents ?? 0) > 0)
        }
        // Less than a day: the report covers all of it, by hour (3 hours, the last partly), for every room.
        #expect(result.reportRows == 4 * 3)
        #expect(result.reportVisits > 0)
        // The playback's first hour: every device every second, in pages of 1000.
        #expect(result.playbackFixes == 3 * 3600)
        #expect(result.playbackPages == 11)
        #expect(result.devicePlaybackFixes == 3600)
        #expect(result.instantDevices == 3)
    }

    @Test func aSmallRunFillsTheStoreReadsItBackAndReusesIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bench.sqlite").path
        let arguments = [
            "history", "--days", "0.1", "--devices", "3", "--zones", "4", "--page", "1000", "--repeat", "1",
            "--sqlite", path,
        ]
        var postgres: [String] = []
        var database: String?
        if Postgres.isInstalled {
            let cluster = try Postgres.shared()
            let name = try cluster.createDatabase()
            database = name
            postgres = ["--postgres", cluster.url(name, withPassword: true)]
        }
        defer { if let database { try? Postgres.shared().dropDatabase(database) } }
        let command = try #require(try BenchCommand.parseAsRoot(arguments + postgres) as? BenchHistoryCommand)
        let first = try await command.measure()
        #expect(first.stores.map(\.store) == (Postgres.isInstalled ? ["sqlite", "postgres"] : ["sqlite"]))
        for store in first.stores { Self.check(store, filled: true) }
        // Both stores read the same numbers.
        if let sqlite = first.stores.first, let other = first.stores.last {
            #expect(sqlite.reportVisits == other.reportVisits)
        }
        let again = try await command.measure()
        for store in again.stores { Self.check(store, filled: false) }
    }
}
