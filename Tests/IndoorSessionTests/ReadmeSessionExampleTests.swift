import Foundation
import IndoorModel
import IndoorSession
import IndoorTestSupport
import Testing

/// The app-side example of README.md and docs/SESSION.md, run as written: the block between the markers is
/// the text both documents show, and the test checks that they still show exactly it.
@Suite("README session example")
struct ReadmeSessionExampleTests {
    static let venueJSON = Data(
        """
        {"id": "tiny", "name": "Tiny", "anchor": {"latitude": 52.5, "longitude": 13.4},
         "nodes": [{"id": "n1", "x": 0, "y": 0}, {"id": "n2", "x": 20, "y": 0}],
         "zones": [{"id": "east", "name": "East room", "checkOutTime": 2,
                    "fences": [{"polygon": [[15, -5], [25, -5], [25, 5], [15, 5]]}]}]}
        """.utf8)

    /// Runs the example over `sightings`, collecting what it prints.
    static func example(venueJSON: Data, sightings: AsyncStream<Sighting>) async throws -> [String] {
        var printed: [String] = []
        func print(_ line: String) { printed.append(line) }
        // README example begin
        let venue = try Venue.decodeJSON(venueJSON)  // nodes, floors, zones, geo anchor
        let runner = LocationSessionRunner(try LocationSession(SessionConfiguration(venue: venue)))
        Task { try await runner.run(sightings) }  // any AsyncSequence of Sighting
        for await event in runner.events {  // fixes and zone events, in time order
            switch event {
            case .fix(let fix):
                print("\(fix.device) at x \(fix.position.x) m, latitude \(fix.coordinate?.latitude ?? .nan)")
            case .zone(let zone): print("\(zone.device) \(zone.kind) \(zone.zoneName) at t = \(zone.time) s")
            default: break
            }
        }
        // README example end
        return printed
    }

    @Test func theExampleRunsAndPrintsFixesAndZoneEvents() async throws {
        let sightings = AsyncStream(Sighting.self) { feed in
            for sighting in tinyWalk {
                feed.yield(sighting)
            }
            feed.finish()
        }
        let printed = try await Self.example(venueJSON: Self.venueJSON, sightings: sightings)
        #expect(printed.count == 7)  // five fixes (the first at 1 s: it waits half a second), a check-in and out
        // One node heard: the fix lies at it, within the posterior's tenth of a metre (its grid ends a metre past it).
        #expect(Self.nearTheFirstNode(printed.first))
        #expect(printed.contains("p checkIn East room at t = 10.0 s"))
        // At t = 22 s the check-out falls due (2 s confidently outside) before that sighting's fix.
        #expect(printed.suffix(2).first == "p checkOut East room at t = 22.0 s")
        #expect(Self.nearTheFirstNode(printed.last))
    }

    /// Whether `line` is a fix printed by the example within 0.25 m of node n1 (x 0, latitude 52.5).
    static func nearTheFirstNode(_ line: String?) -> Bool {
        guard let line, line.hasPrefix("p at x "), let comma = line.firstIndex(of: ",") else { return false }
        let x = Double(line.dropFirst("p at x ".count).prefix { $0 != " " }) ?? .nan
        let latitude = Double(line[comma...].dropFirst(", latitude ".count)) ?? .nan
        return abs(x) < 0.25 && abs(latitude - 52.5) < 1e-5
    }

    @Test func readmeAndDocsShowTheExampleAsTested() throws {
        let root = RepositoryFiles.root
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        guard let begin = lines.firstIndex(where: { $0.hasSuffix("// README example begin") }),
            let end = lines.firstIndex(where: { $0.hasSuffix("// README example end") })
        else {
            Issue.record("markers missing")
            return
        }
        let block = lines[(begin + 1)..<end].map { String($0.dropFirst(8)) }.joined(separator: "\n")
        for document in ["README.md", "docs/SESSION.md"] {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            #expect(text.contains(block), "\(document) does not show the tested example:\n\(block)")
        }
    }
}
