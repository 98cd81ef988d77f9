import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorModel
import IndoorServerTestSupport
import NIOCore
import Testing

@testable import IndoorServer

/// A person's data (issue 50): `DELETE /v1/devices/{device}` leaves no row, no answer and (SQLite) no byte of the
/// device; `?venue=` limits it; the export gives the device's rows as NDJSON pages; deleting a venue closes its open
/// visits and with `?purge=true` removes its data.
@Suite struct ErasureTests {
    static let anna = "phone-anna-7f3e"
    static let bob = "phone-bob-51c2"

    /// ``ServerFixture/walk`` by `device` in venue `venue`.
    static func walk(_ device: String, venue: String = "tiny") -> String {
        #"{"venue": "\#(venue)", "sightings": \#(ServerFixture.walk.replacingOccurrences(of: #""p""#, with: "\"\(device)\""))}"#
    }

    /// Whether the store's tables (and, for SQLite, the database file's bytes after a checkpoint) hold `text`.
    static func stored(_ text: String, fixture: ServerFixture) async throws -> Bool {
        switch fixture.database.kind {
        case .sqlite:
            let store = try #require(fixture.server.hub.store as? SQLiteStore)
            try await store.checkpoint()
            let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.database.name))
            let wal = (try? Data(contentsOf: URL(fileURLWithPath: fixture.database.name + "-wal"))) ?? Data()
            return bytes.range(of: Data(text.utf8)) != nil || wal.range(of: Data(text.utf8)) != nil
        case .postgres:
            let rows = try Postgres.shared().psql(
                fixture.database.name,
                """
                SELECT (SELECT COUNT(*) FROM sighting WHERE device = '\(text)')
                     + (SELECT COUNT(*) FROM event WHERE device = '\(text)' OR json::text LIKE '%\(text)%')
                     + (SELECT COUNT(*) FROM device WHERE device = '\(text)' OR fix::text LIKE '%\(text)%')
                     + (SELECT COUNT(*) FROM visit WHERE device = '\(text)')
                """)
            return Int(rows.trimmingCharacters(in: .whitespacesAndNewlines)) != 0
        }
    }

    /// The export of `device` followed page by page (`limit` lines each): its lines, and how many pages it took.
    static func export(
        _ device: String, client: some TestClientProtocol, limit: Int = 1000
    ) async throws -> (lines: [[String: Any]], pages: Int) {
        var uri: String? = "/v1/devices/\(device)/export?limit=\(limit)"
        var lines: [[String: Any]] = []
        var pages = 0
        while let next = uri {
            let response = try await client.get(next, key: ServerFixture.admin)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/x-ndjson")
            pages += 1
            uri = nil
            for line in response.text.split(separator: "\n") {
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                if object["kind"] as? String == "next" {
                    uri = object["href"] as? String
                    let link = try #require(HTTPField.Name("Link"))
                    #expect(response.headers[link]?.contains("rel=\"next\"") == true)
                } else {
                    lines.append(object)
                }
            }
            if pages > 100 { break }
        }
        return (lines, pages)
    }

    /// A stream open during an erasure is sent `event: device-erased` naming the device (and no id), so the map drops
    /// it; a device the server never had anything of is not sent, and the other device stays.
    @Test(arguments: StoreKind.tested)
    func anErasureTellsTheOpenStreams(store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            async let streamed = client.execute(
                uri: "/v1/stream?venue=tiny", method: .get, headers: ServerFixture.headers(ServerFixture.read))
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await client.post(Self.walk(Self.anna)).status == .ok)
            #expect(try await client.post(Self.walk(Self.bob)).status == .ok)
            for device in [Self.anna, "nobody-0c4d"] {
                let erased = try await client.execute(
                    uri: "/v1/devices/\(device)", method: .delete, headers: ServerFixture.headers(ServerFixture.admin))
                #expect(erased.status == .ok)
            }
            try await Task.sleep(for: .milliseconds(300))
            _ = try await client.putVenue(ServerFixture.renamedVenueJSON)  // a changed venue ends the stream
            let blocks = try await streamed.text.components(separatedBy: "\n\n")
            let erasures = blocks.filter { $0.contains("event: device-erased") }
            #expect(erasures.count == 1, "\(erasures)")
            let block = try #require(erasures.first)
            #expect(!block.contains("id:"))
            let data = try #require(block.split(separator: "\n").first { $0.hasPrefix("data: ") })
            let payload = try JSONValue.parse(String(data.dropFirst(6)))
            #expect(payload["device"] == .string(Self.anna))
            #expect(payload["venue"] == .string("tiny"))
            #expect(try DeviceRoomTests.validator().problems(payload, schema: "StreamDeviceErased") == [])
            // The erasure came after anna's and bob's events.
            let fixes = blocks.filter { $0.contains("event: fix") }
            #expect(fixes.contains { $0.contains(Self.bob) } && fixes.contains { $0.contains(Self.anna) })
        }
    }

    @Test(arguments: StoreKind.tested)
    func erasingADeviceLeavesNoRowNoAnswerAndNoByte(store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            // Anna carries a site survey: the recording, its marks and its copies of her sightings are hers too.
            let recordings = "/v1/venues/tiny/survey/recordings"
            let started = try await client.send(recordings, .post, #"{"device": "\#(Self.anna)"}"#)
            let recording = try #require(started.json["id"] as? Int)
            #expect(try await client.post(Self.walk(Self.anna)).status == .ok)
            #expect(try await client.post(Self.walk(Self.bob)).status == .ok)
            for mark in [#"{"x": 0, "y": 0, "t": 0}"#, #"{"x": 20, "y": 0, "t": 22}"#] {
                #expect(try await client.send("\(recordings)/\(recording)/marks", .post, mark).status == .created)
            }
            #expect(try await client.send("\(recordings)/\(recording)/stop", .post).status == .ok)
            let before = try await Self.export(Self.anna, client: client)
            let kinds = Set(before.lines.compactMap { $0["kind"] as? String })
            #expect(
                kinds.isSuperset(of: [
                    "latest", "sighting", "fix", "event", "visit", "surveyRecording", "surveySighting",
                ]),
                "\(kinds)")
            let surveyed = try #require(before.lines.first { $0["kind"] as? String == "surveyRecording" })
            #expect(((surveyed["data"] as? [String: Any])?["marks"] as? [Any])?.count == 2)
            #expect(before.lines.filter { $0["kind"] as? String == "surveySighting" }.count == 6)
            #expect(try await Self.stored(Self.anna, fixture: fixture))

            // A read key may not erase.
            let refused = try await client.execute(
                uri: "/v1/devices/\(Self.anna)", method: .delete, headers: ServerFixture.headers(ServerFixture.read))
            #expect(refused.status == .forbidden)

            let erased = try await client.execute(
                uri: "/v1/devices/\(Self.anna)", method: .delete, headers: ServerFixture.headers(ServerFixture.admin))
            #expect(erased.status == .ok)
            let counts = try #require(erased.json["erased"] as? [String: Int])
            #expect(counts["sightings"] == 6)
            #expect(counts["latestFixes"] == 1)
            #expect((counts["events"] ?? 0) > 2)
            #expect((counts["visits"] ?? 0) >= 1)
            #expect(counts["surveyRecordings"] == 1)

            // No answer names it.
            let devices = try await client.get("/v1/venues/tiny/devices?within=1000000000")
            #expect(!devices.text.contains(Self.anna))
            #expect(devices.text.contains(Self.bob))
            #expect(try await client.get("/v1/venues/tiny/devices/\(Self.anna)").status == .notFound)
            let activity = try await client.get("/v1/activity?venue=tiny&limit=1000")
            #expect(!activity.text.contains(Self.anna))
            #expect(activity.text.contains(Self.bob))
            #expect(try await Self.export(Self.anna, client: client).lines.isEmpty)
            // Nor the session.
            #expect(fixture.server.hub.room(venue: "tiny", device: Self.anna) == nil)
            // No table, and no byte of the SQLite file; the other device's rows are still there (the check can fail).
            #expect(try await !Self.stored(Self.anna, fixture: fixture))
            #expect(try await Self.stored(Self.bob, fixture: fixture))
            // Erasing again finds nothing.
            let again = try await client.execute(
                uri: "/v1/devices/\(Self.anna)", method: .delete, headers: ServerFixture.headers(ServerFixture.admin))
            #expect((again.json["erased"] as? [String: Int])?.values.reduce(0, +) == 0)
        }
    }

    @Test(arguments: StoreKind.tested)
    func anErasureLimitedToAVenueLeavesTheOthers(store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            let other = ServerFixture.venueJSON.replacingOccurrences(of: #""id": "tiny""#, with: #""id": "other""#)
            #expect(try await client.putVenue().status == .created)
            #expect(try await client.putVenue(other, id: "other").status == .created)
            #expect(try await client.post(Self.walk(Self.anna)).status == .ok)
            #expect(try await client.post(Self.walk(Self.anna, venue: "other")).status == .ok)
            let erased = try await client.execute(
                uri: "/v1/devices/\(Self.anna)?venue=tiny", method: .delete,
                headers: ServerFixture.headers(ServerFixture.admin))
            #expect(erased.status == .ok)
            #expect((erased.json["erased"] as? [String: Int])?["sightings"] == 6)
            let left = try await Self.export(Self.anna, client: client).lines
            #expect(!left.isEmpty)
            #expect(Set(left.compactMap { $0["venue"] as? String }) == ["other"])
        }
    }

    @Test(arguments: StoreKind.tested)
    func theExportComesInPagesThatFollowEachOther(store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue()
            _ = try await client.post(Self.walk(Self.anna))
            let whole = try await Self.export(Self.anna, client: client)
            let paged = try await Self.export(Self.anna, client: client, limit: 2)
            #expect(whole.pages == 1)
            #expect(paged.pages > 3)
            let key: ([String: Any]) -> String = { "\($0["kind"] ?? "")/\($0["id"] ?? "")" }
            #expect(paged.lines.map(key) == whole.lines.map(key))
            // The kinds in their order: latest, sighting, fix and event (by id), visit, survey recordings and their
            // sightings.
            let order = [
                "latest": 0, "sighting": 1, "fix": 2, "event": 2, "visit": 3, "surveyRecording": 4, "surveySighting": 5,
            ]
            let ranks = whole.lines.compactMap { order[$0["kind"] as? String ?? ""] }
            #expect(ranks == ranks.sorted())
            #expect(ranks.count == whole.lines.count)
            let sighting = try #require(whole.lines.first { $0["kind"] as? String == "sighting" })
            #expect((sighting["data"] as? [String: Any])?["device"] as? String == Self.anna)
            #expect(sighting["venue"] as? String == "tiny")
            // from / to choose by data time.
            let late = try await client.get("/v1/devices/\(Self.anna)/export?from=15", key: ServerFixture.admin)
            for line in late.text.split(separator: "\n") {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                guard object?["kind"] as? String == "sighting" else { continue }
                #expect(((object?["data"] as? [String: Any])?["t"] as? Double ?? 0) >= 15)
            }
            #expect(
                try await client.get("/v1/devices/x/export?cursor=nonsense", key: ServerFixture.admin).status
                    == .badRequest)
            #expect(try await client.get("/v1/devices/x/export").status == .forbidden)
        }
    }

    @Test(arguments: StoreKind.tested)
    func deletingAVenueClosesItsOpenVisitsAndAPurgeRemovesItsData(store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        let store = fixture.server.hub.store
        try await fixture.test { client in
            // Into the east room and no further: its visit stays open.
            let east = """
                {"venue": "tiny", "sightings": [{"t": 0, "device": "p", "node": "n2", "rssi": -59},
                 {"t": 1, "device": "p", "node": "n2", "rssi": -58}, {"t": 2, "device": "p", "node": "n2", "rssi": -58}]}
                """
            _ = try await client.putVenue()
            _ = try await client.post(east)
            #expect(try await store.visits(VisitQuery(venue: "tiny", openOnly: true)).visits.count == 1)
            let deleted = try await client.execute(
                uri: "/v1/venues/tiny", method: .delete, headers: ServerFixture.headers(ServerFixture.admin))
            #expect(deleted.status == .noContent)
            let visits = try await store.visits(VisitQuery(venue: "tiny")).visits
            #expect(visits.count == 1)
            #expect(visits.first?.reason == "lost")
            #expect(visits.first?.checkOut != nil)

            _ = try await client.putVenue()
            _ = try await client.post(east.replacingOccurrences(of: #""device": "p""#, with: #""device": "q""#))
            let purged = try await client.execute(
                uri: "/v1/venues/tiny?purge=true", method: .delete, headers: ServerFixture.headers(ServerFixture.admin))
            #expect(purged.status == .ok)
            #expect(purged.json["closedVisits"] as? Int == 1)
            let counts = try #require(purged.json["purged"] as? [String: Int])
            #expect(counts["sightings"] == 6)
            #expect(counts["visits"] == 2)
            #expect(try await store.sightingCount(venue: "tiny") == 0)
            #expect(try await store.visits(VisitQuery(venue: "tiny")).visits.isEmpty)
            #expect(try await store.devices(venue: "tiny", since: -.infinity).isEmpty)
            #expect(
                try await client.execute(
                    uri: "/v1/venues/tiny?purge=maybe", method: .delete,
                    headers: ServerFixture.headers(ServerFixture.admin)
                ).status == .badRequest)
        }
    }
}
