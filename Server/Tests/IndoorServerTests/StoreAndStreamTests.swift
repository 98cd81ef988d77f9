import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorServer
import NIOCore
import Testing

@Suite struct StoreAndStreamTests {
    @Test(arguments: StoreKind.tested)
    func aRestartOnTheSameDatabaseCarriesOn(store: StoreKind) async throws {
        let first = try await ServerFixture(store: store)
        defer { first.remove() }
        try await first.test { client in
            _ = try await client.putVenue()
            _ = try await client.post(#"{"venue": "tiny", "sightings": \#(ServerFixture.walk)}"#)
        }
        let again = try await ServerFixture(database: first.database)
        #expect(again.server.hub.venueIDs == ["tiny"])
        try await again.test { client in
            #expect(try await client.get("/v1/venues/tiny/devices/p").json["t"] as? Double == 22)
            #expect((try await client.get("/v1/activity?venue=tiny").json["visits"] as? [Any])?.count == 3)
            // The restarted session's first fix of p waits half a second: two sightings, the second makes it.
            let more = try await client.post(
                #"{"venue": "tiny", "sightings": [{"t": 40, "device": "p", "node": "n2", "rssi": -59}, "#
                    + #"{"t": 41, "device": "p", "node": "n2", "rssi": -59}]}"#)
            #expect((more.json["events"] as? [[String: Any]])?.first?["event"] as? String == "checkIn")
        }
        #expect(try await first.database.open().sightingCount(venue: "tiny") == 8)
    }

    @Test func anotherProgramsDatabaseOrAFolderIsRefused() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let path = fixture.folder.appendingPathComponent("other.sqlite").path
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = [
            "python3", "-c", "import sqlite3; sqlite3.connect('\(path)').execute('create table t (x)')",
        ]
        try sqlite.run()
        sqlite.waitUntilExit()
        guard sqlite.terminationStatus == 0 else { return }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) { try SQLiteStore(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(throws: StoreError.self) { try SQLiteStore(path: fixture.folder.path) }
    }

    @Test(arguments: StoreKind.tested)
    func theStreamResumesAfterLastEventIDWithoutGapOrRepeat(store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue()
            let first = try await client.post(#"{"venue": "tiny", "sightings": \#(ServerFixture.walk)}"#)
            let last = try #require(first.json["lastEventId"] as? Int)
            var headers = ServerFixture.headers(ServerFixture.read)
            headers[HTTPField.Name("Last-Event-ID")!] = String(last - 2)
            async let streamed = client.execute(uri: "/v1/stream?venue=tiny", method: .get, headers: headers)
            try await Task.sleep(for: .milliseconds(300))
            // q's first fix waits half a second: its second sighting makes it.
            _ = try await client.post(
                #"{"venue": "tiny", "sightings": [{"t": 40, "device": "q", "node": "n2", "rssi": -59}, "#
                    + #"{"t": 41, "device": "q", "node": "n2", "rssi": -59}]}"#)
            try await Task.sleep(for: .milliseconds(300))
            // Replacing the venue by a changed one ends its streams (the same venue again would not).
            _ = try await client.putVenue(ServerFixture.renamedVenueJSON)
            let response = try await streamed
            #expect(response.headers[.contentType] == "text/event-stream")
            let ids = response.text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.compactMap {
                Int($0.dropFirst(4))
            }
            #expect(ids.first == last - 1)
            #expect(ids == Array(ids.first!...(ids.last ?? 0)))
            #expect(ids.count >= 4)
            #expect(response.text.contains("event: zone"))
            #expect(response.text.contains(#""device":"q""#))
        }
    }
}
