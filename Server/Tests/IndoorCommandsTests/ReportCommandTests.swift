import ArgumentParser
import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorServer
import Testing

@testable import IndoorCommands

/// `indoor report` on a SQLite database: the CSV of `GET /v1/venues/{id}/reports/zones`, in the venue's time zone;
/// clear errors for a bad period or venue.
@Suite("indoor report")
struct ReportCommandTests {
    static func run(_ arguments: [String]) async throws {
        var command = try #require(try IndoorCommand.parseAsRoot(arguments) as? any AsyncParsableCommand)
        try await command.run()
    }

    /// A visit of `device` to the east room: in at `checkIn`, gone at `departure`, checked out 5 s later.
    static func visit(_ device: String, checkIn: Double, departure: Double) -> [ServerEvent] {
        let zone = (zone: "east", zoneName: "East, the big room")
        return [
            .zone(
                ZoneEvent(
                    kind: .checkIn, time: checkIn, zone: zone.zone, zoneName: zone.zoneName, device: device,
                    trigger: .fence, fence: "0", willCheckOut: true)),
            .zone(
                ZoneEvent(
                    kind: .checkOut, time: departure + 5, zone: zone.zone, zoneName: zone.zoneName, device: device,
                    trigger: .fence, fence: "0", checkIn: checkIn, departure: departure, reason: .left,
                    dwell: departure - checkIn)),
        ]
    }

    @Test func theReportIsTheCSVOfTheVisitsInTheVenuesTimeZone() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("indoor.sqlite").path
        let store = try SQLiteStore(path: path)
        let venue = Venue(
            id: "hq", name: "HQ",
            zones: [Zone(id: "east", name: "East, the big room"), Zone(id: "hall", name: "Hall")],
            timeZone: "Asia/Kolkata")
        try await store.putVenue(StoredVenue(id: "hq", json: try venue.encodeJSON()))
        // 2026-11-28T10:00:00+05:30 is 1795840200 Unix seconds: a at 10:01–10:11, b at 10:05–10:35.
        let ten = 1_795_840_200.0
        let events =
            Self.visit("a", checkIn: ten + 60, departure: ten + 660)
            + Self.visit("b", checkIn: ten + 300, departure: ten + 2100)
        _ = try await store.commit(
            IngestBatch(
                venue: "hq", sightings: [], events: events.sorted { $0.time < $1.time }, receivedAt: ten + 3600))

        let output = folder.appendingPathComponent("report.csv").path
        try await Self.run([
            "report", "--database", path, "--venue", "hq", "--from", "2026-11-28T10:00:00+05:30", "--to",
            "\(ten + 7200)", "--bucket", "hour", "-o", output,
        ])
        let text = try String(contentsOfFile: output, encoding: .utf8)
        let expected = try await ZoneReport.make(store: store, venue: venue, from: ten, to: ten + 7200, bucket: .hour)
        #expect(text == expected.csv())
        let lines = text.split(separator: "\r\n").map(String.init)
        #expect(lines.count == 1 + 2 * 2)
        // Two visits, dwells 600 and 1800 s (median 1200, 90th percentile 1680), 2400 s inside over the hour, two at
        // once; the zone's name quoted for its comma.
        #expect(
            lines[1]
                == "east,\"East, the big room\",\(Int(ten)),\(Int(ten) + 3600),2026-11-28T10:00:00+05:30,2,2,1200,1680,"
                + "0.667,2")
        #expect(lines[2].hasSuffix(",0,0,,,0,0"))
        #expect(lines[3].hasPrefix("hall,Hall,"))

        // A period that is not one, an unknown venue or bucket: an error, and no file.
        let refused = folder.appendingPathComponent("refused.csv").path
        for arguments in [
            ["--venue", "hq", "--from", "10", "--to", "5"], ["--venue", "nowhere", "--from", "0", "--to", "5"],
            ["--venue", "hq", "--from", "0", "--to", "5", "--bucket", "minute"],
            ["--venue", "hq", "--from", "yesterday", "--to", "5"],
        ] {
            await #expect(throws: (any Error).self, "\(arguments)") {
                try await Self.run(["report", "--database", path, "-o", refused] + arguments)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: refused))
    }
}
