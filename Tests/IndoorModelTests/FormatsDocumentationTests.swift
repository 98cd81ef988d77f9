import Foundation
import IndoorTestSupport
import Testing

@testable import IndoorModel

/// The examples of docs/FORMATS.md parse with the code, so the documentation cannot drift from it.
@Suite("docs/FORMATS.md examples")
struct FormatsDocumentationTests {
    static let document: URL = RepositoryFiles.url("docs/FORMATS.md")

    /// The fenced block after `<!-- example: name -->`.
    static func example(_ name: String) throws -> String {
        let text = try String(contentsOf: document, encoding: .utf8)
        let marker = "<!-- example: \(name) -->\n"
        let start = try #require(text.range(of: marker), "docs/FORMATS.md has no example '\(name)'")
        let rest = text[start.upperBound...]
        let open = try #require(rest.range(of: "\n"))  // end of the ``` line
        let close = try #require(rest.range(of: "\n```", range: open.upperBound..<rest.endIndex))
        return String(rest[open.upperBound..<close.lowerBound]) + "\n"
    }

    @Test func nodes() throws {
        let nodes = try DatasetCSV.parseNodes(try Self.example("nodes.csv")).get()
        #expect(nodes.map(\.id) == ["b0-1", "b0-2", "gw-lobby"])
        #expect(nodes[2].position == Point3D(x: 5, y: 8.05, z: 0))
        #expect(nodes[2].floor == 1)
    }

    @Test func sightings() throws {
        let sightings = try DatasetCSV.parseSightings(try Self.example("sightings.csv")).get()
        #expect(sightings.count == 3)
        #expect(sightings[1].rssi == -84.5)
        #expect(sightings[1].txPower == -59)
        #expect(sightings[2].source == .beacon(try BeaconID(parsing: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/0/3")))
    }

    @Test func truth() throws {
        let truth = try DatasetCSV.parseTruth(try Self.example("truth.csv")).get()
        #expect(truth.map(\.floor) == [0, 0, nil])
    }

    @Test func sightingsJSONLines() throws {
        let parsed = SightingsJSONLines.parse(try Self.example("sightings.jsonl"))
        #expect(parsed.problems.isEmpty)
        #expect(parsed.rows.count == 2)
        // The example is exactly what the writer produces.
        #expect(try SightingsJSONLines.text(parsed.rows) == (try Self.example("sightings.jsonl")))
    }

    @Test func venue() throws {
        let venue = try Venue.decodeJSON(Data(try Self.example("venue.json").utf8))
        #expect(venue.floors.count == 2)
        #expect(venue.floors[0].walls.count == 3)
        #expect(venue.nodes.count == 3)
        #expect(venue.nodes[0].calibration == NodeCalibration(rssiAtOneMeter: -61.5, pathLossExponent: 2.2))
        #expect(venue.zones == [Zone(id: "lobby", name: "Lobby")])
        #expect(venue.anchor?.bearingDegrees == 20)
        #expect(venue.geofences == ["hq-building-a"])
        // Written back with the geofences; a venue without them is written without the key.
        #expect(String(decoding: try venue.encodeJSON(), as: UTF8.self).contains(#""geofences""#))
        var plain = venue
        plain.geofences = []
        #expect(!String(decoding: try plain.encodeJSON(), as: UTF8.self).contains("geofences"))
        #expect(try Venue.decodeJSON(try plain.encodeJSON()) == plain)
        // Stairs as a polygon, a lift as a circle; written back the same.
        #expect(venue.connections.map(\.id) == ["stairs-east", "lift"])
        #expect(venue.connections.map(\.kind) == [.stairs, .lift])
        #expect(venue.connections.allSatisfy { $0.levels == [0, 1] })
        #expect(venue.connections[1].contains(Point2D(x: 11.5, y: 8)))
        #expect(try Venue.decodeJSON(try venue.encodeJSON()) == venue)
    }

    @Test func fix() throws {
        let text = try Self.example("fix.json")
        let fix = try JSONFormat.decode(Fix.self, from: Data(text.utf8), file: "fix.json")
        #expect(fix.floor == 0)
        #expect(String(decoding: try JSONFormat.encoder().encode(fix), as: UTF8.self) + "\n" == text)
    }

    @Test func evaluateLine() throws {
        let line = try Self.example("evaluate.jsonl")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object.count == 19)
        let order = [
            "method", "count", "misses", "mean_m", "median_m", "p90_m", "max_m", "floor_accuracy", "radius_coverage",
            "floor_flips_per_hour", "wrong_room_rate", "room_changes_per_hour", "truth_room_changes_per_hour",
            "truth_floor_flips_per_hour", "held_wrong_room_rate", "unknown_room_rate", "held_room_changes_per_hour",
            "estimator", "validated_median_m",
        ]
        let positions = order.compactMap { line.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.count == 19)
        #expect(positions == positions.sorted())
    }
}
