import Foundation
import IndoorAdvertising
import IndoorModel
import IndoorSession
import Testing

@testable import IndoorCommands

/// A 20 m square hall with four corner nodes, serving the geofence `hall`.
private let venueJSON = #"""
    {"id":"hall","name":"Hall","anchor":{"latitude":52.5,"longitude":13.4},"geofences":["hall","campus"],
     "nodes":[{"id":"a","x":0,"y":0},{"id":"b","x":20,"y":0},{"id":"c","x":0,"y":20},{"id":"d","x":20,"y":20}]}
    """#

/// A phone at (5, 5): every node each second for 12 s (log-distance, −59 dBm at 1 m, exponent 2); line 3 is bad.
private func sightingsCSV() -> String {
    var text = "t,device,node,rssi\n"
    text += "0,phone,a,abc\n"
    let nodes = [("a", 0.0, 0.0), ("b", 20.0, 0.0), ("c", 0.0, 20.0), ("d", 20.0, 20.0)]
    for second in 0..<12 {
        for (id, x, y) in nodes {
            let distance = ((5 - x) * (5 - x) + (5 - y) * (5 - y)).squareRoot()
            text += "\(second),phone,\(id),\(Int((-59 - 20 * log10(distance)).rounded()))\n"
        }
    }
    return text
}

@Suite("indoor scan")
struct ScanCommandTests {
    /// How far from the phone the default's answer may be, metres: its posterior is held near the centroid of the
    /// strongest nodes (`CentroidPrior`), which in a 20 m hall pulls a phone 7 m from a corner towards the middle
    /// (2.3 m off here, with readings that follow the path-loss model exactly).
    static let tolerance = 3.0

    /// Writes the venue and the sightings to a new temporary folder and returns their paths.
    /// (The folder is under the system's temporary directory, named `indoor-scan-UUID`.)
    private func files() throws -> (venue: String, sightings: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let venue = folder.appendingPathComponent("venue.json")
        let sightings = folder.appendingPathComponent("walk.csv")
        try Data(venueJSON.utf8).write(to: venue)
        try Data(sightingsCSV().utf8).write(to: sightings)
        return (venue.path, sightings.path)
    }

    @Test func printsTheResultJSONAndReportsBadRowsWithFileAndLine() throws {
        let (venue, sightings) = try files()
        let command = try ScanCommand.parse(["--venue", venue, "--geofence", "hall", "--seconds", "10", sightings])
        var problems: [String] = []
        let json = try command.answer { problems.append($0.description) }
        #expect(problems == ["\(sightings):2: rssi 'abc' is not a number"])
        let result = try ScanResult.decodeJSON(json)
        #expect(result.duration == 10 && result.timestamp == 10 && result.beacons == 4)
        #expect(Point2D(x: result.x, y: result.y).distance(to: Point2D(x: 5, y: 5)) < Self.tolerance)
        #expect(result.geofenceId == "hall" && result.venueId == "hall" && result.latitude != nil)
    }

    @Test func aBtsnoopCaptureIsScannedLikeTheSameSightingsInACSV() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The hall's nodes advertise as iBeacons; the capture holds what the phone heard of them.
        let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
        let beaconVenue = venueJSON.replacingOccurrences(
            of: #"{"id":"a","#, with: #"{"id":"a","beacon":"\#(uuid)/1/1","#
        )
        .replacingOccurrences(of: #"{"id":"b","#, with: #"{"id":"b","beacon":"\#(uuid)/1/2","#)
        .replacingOccurrences(of: #"{"id":"c","#, with: #"{"id":"c","beacon":"\#(uuid)/1/3","#)
        .replacingOccurrences(of: #"{"id":"d","#, with: #"{"id":"d","beacon":"\#(uuid)/1/4","#)
        let venue = folder.appendingPathComponent("venue.json")
        try Data(beaconVenue.utf8).write(to: venue)
        let minors: [String: UInt16] = ["a": 1, "b": 2, "c": 3, "d": 4]
        let rows = try DatasetCSV.parseSightings(sightingsCSV(), file: "walk.csv").rows.map { row -> Sighting in
            guard case .node(let id) = row.source, let minor = minors[id], let beaconUUID = UUID(uuidString: uuid)
            else { return row }
            return Sighting(
                time: row.time + 1_700_000_000, device: "phone",
                source: .beacon(BeaconID(uuid: beaconUUID, major: 1, minor: minor)), rssi: row.rssi)
        }
        let capture = folder.appendingPathComponent("phone.btsnoop")
        try Data(try BeaconCapture.btsnoop(sightings: rows)).write(to: capture)
        let command = try ScanCommand.parse([
            "--venue", venue.path, "--geofence", "hall", "--seconds", "10", capture.path,
        ])
        var problems: [FormatError] = []
        let json = try command.answer { problems.append($0) }
        #expect(problems.isEmpty)
        let result = try ScanResult.decodeJSON(json)
        #expect(result.beacons == 4 && result.duration == 10)
        #expect(Point2D(x: result.x, y: result.y).distance(to: Point2D(x: 5, y: 5)) < Self.tolerance)
    }

    @Test func anUnknownGeofenceIsOneLine() throws {
        let (venue, sightings) = try files()
        let command = try ScanCommand.parse(["--venue", venue, "--geofence", "moon", sightings])
        #expect(throws: CommandFailure.self) { try command.answer() }
        do {
            _ = try command.answer()
        } catch {
            #expect("\(error)" == "no venue serves geofence 'moon' (known: campus, hall)")
        }
    }

    @Test func theGeofenceIsCheckedBeforeTheSourceIsRead() throws {
        let (venue, sightings) = try files()
        let missing = sightings + ".nowhere"
        let command = try ScanCommand.parse(["--venue", venue, "--geofence", "moon", missing])
        do {
            _ = try command.answer()
            Issue.record("expected the unknown geofence")
        } catch {
            #expect("\(error)" == "no venue serves geofence 'moon' (known: campus, hall)")
        }
        let known = try ScanCommand.parse(["--venue", venue, "--geofence", "hall", missing])
        #expect(throws: FormatError.self) { try known.answer() }
        do {
            _ = try known.answer()
        } catch {
            #expect("\(error)" == "\(missing): no such file")
        }
        let folder = URL(fileURLWithPath: sightings).deletingLastPathComponent().path
        let inFolder = try ScanCommand.parse(["--venue", venue, "--geofence", "hall", folder])
        do {
            _ = try inFolder.answer()
            Issue.record("expected a folder to be refused")
        } catch {
            #expect("\(error)" == "\(folder): a folder, not a file")
        }
    }

    /// A 10 s scan at the start of a long recording reads it only until the scan has ended (and the re-order
    /// window after it): a bad row thousands of rows later is never reached, and the answer is the short file's.
    @Test func aScanReadsTheRecordingOnlyUntilItEnds() throws {
        let (venue, sightings) = try files()
        let short = try ScanCommand.parse(["--venue", venue, "--geofence", "hall", "--seconds", "10", sightings])
        let expected = try short.answer()
        var long = sightingsCSV()
        // Two hours of the phone hearing node a every second, then a bad row.
        for second in 12..<7212 { long += "\(second),phone,a,-65\n" }
        #expect(long.utf8.count > 100_000)
        long += "7300,phone,a,loud\n"
        let path = URL(fileURLWithPath: sightings).deletingLastPathComponent().appendingPathComponent("day.csv")
        try Data(long.utf8).write(to: path)
        let command = try ScanCommand.parse(["--venue", venue, "--geofence", "hall", "--seconds", "10", path.path])
        var problems: [String] = []
        let json = try command.answer { problems.append($0.description) }
        #expect(json == expected)
        #expect(problems == ["\(path.path):2: rssi 'abc' is not a number"])
    }

    @Test func rowsOutOfOrderWithinTheWindowScanAsIfSorted() throws {
        let (venue, sightings) = try files()
        let sorted = try ScanCommand.parse(["--venue", venue, "--geofence", "hall", "--seconds", "10", sightings])
        var lines = sightingsCSV().split(separator: "\n").map(String.init)
        // Each second's four rows in reverse order, and seconds 3 and 4 swapped.
        var rows = Array(lines.dropFirst(2))
        rows = stride(from: 0, to: rows.count, by: 4).flatMap { Array(rows[$0..<min($0 + 4, rows.count)].reversed()) }
        rows.swapAt(12, 16)
        lines = [lines[0], lines[1]] + rows
        let path = URL(fileURLWithPath: sightings).deletingLastPathComponent().appendingPathComponent("shuffled.csv")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: path)
        let shuffled = try ScanCommand.parse(["--venue", venue, "--geofence", "hall", "--seconds", "10", path.path])
        #expect(try shuffled.answer() == sorted.answer())
    }

    @Test func aBadVenueNamesTheFileAndField() throws {
        let (_, sightings) = try files()
        let folder = URL(fileURLWithPath: sightings).deletingLastPathComponent()
        let bad = folder.appendingPathComponent("bad.json")
        try Data(#"{"id":"x","geofences":["a","a"]}"#.utf8).write(to: bad)
        let command = try ScanCommand.parse(["--venue", bad.path, "--geofence", "a", sightings])
        do {
            _ = try command.answer()
            Issue.record("expected a FormatError")
        } catch {
            #expect("\(error)" == "\(bad.path): geofences[1]: geofence id 'a' is listed twice")
        }
    }

    @Test func argumentsAreChecked() throws {
        #expect(throws: (any Error).self) { try ScanCommand.parse(["--simulate", "--seconds", "0"]) }
        #expect(throws: (any Error).self) { try ScanCommand.parse(["--sweep"]) }
        #expect(throws: (any Error).self) { try ScanCommand.parse(["--geofence", "a", "x.csv"]) }
        #expect(throws: (any Error).self) { try ScanCommand.parse(["--simulate", "--survey", "train"]) }
        #expect(throws: (any Error).self) {
            try ScanCommand.parse(["--venue", "v.json", "--geofence", "a", "--learn-survey", "x.csv"])
        }
        #expect(try ScanCommand.parse(["--simulate", "--sweep", "--learn-survey"]).learnSurvey)
        let surveyed = try ScanCommand.parse(["--venue", "v.json", "--geofence", "a", "--survey", "s", "x.csv"])
        #expect(surveyed.survey == "s")
    }

    @Test func theSimulatedOfficeAnswers() throws {
        let command = try ScanCommand.parse(["--simulate", "--seconds", "5", "--from", "30"])
        let result = try ScanResult.decodeJSON(try command.answer())
        #expect(result.geofenceId == "office" && result.venueId == "sim-office" && result.duration == 5)
    }
}
