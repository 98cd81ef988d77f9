import Foundation
import HummingbirdTesting
import IndoorModel
import IndoorServer
import Synchronization
import Testing

/// Stored sightings are kept for `--retain-sightings` and then deleted, a round at a time.
@Suite("Retention of stored sightings")
struct RetentionTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "indoor-retention-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func sightings(_ device: String) -> [Sighting] {
        [
            Sighting(time: 1, device: device, node: "n1", rssi: -60),
            Sighting(time: 2, device: device, node: "n2", rssi: -61),
        ]
    }

    @Test func theOldestAreDeletedInRoundsAndTheRestKept() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(path: folder.appendingPathComponent("indoor.sqlite").path)
        for (device, receivedAt) in [("a", 100.0), ("b", 200.0), ("c", 300.0)] {
            _ = try await store.commit(
                IngestBatch(venue: "tiny", sightings: Self.sightings(device), events: [], receivedAt: receivedAt))
        }
        #expect(try store.storage().oldestSighting == 100)
        #expect(try store.storage().bytes > 0)
        // Rounds of 3 among the 3 oldest rows: 3 deleted (a, a, b), then 1 (b), then none older than 250 is left.
        #expect(try await store.pruneSightings(receivedBefore: 250, limit: 3) == 3)
        #expect(try await store.pruneSightings(receivedBefore: 250, limit: 3) == 1)
        #expect(try await store.pruneSightings(receivedBefore: 250, limit: 3) == 0)
        #expect(try store.sightingCount(venue: "tiny") == 2)
        #expect(try store.storage().oldestSighting == 300)
    }

    @Test func theHubKeepsSightingsForTheRetentionAndSaysSoInMetrics() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(path: folder.appendingPathComponent("indoor.sqlite").path)
        let now = Mutex(1_000_000.0)
        let metrics = ServerMetrics()
        let hub = try VenueHub(store: store, metrics: metrics, wallClock: { now.withLock { $0 } })
        _ = try await hub.putVenue(id: "tiny", json: Data(ServerFixture.venueJSON.utf8))
        for device in ["a", "b", "c", "d", "e"] {
            _ = try await hub.ingest(venue: "tiny", sightings: Self.sightings(device))
        }
        #expect(try store.sightingCount(venue: "tiny") == 10)
        now.withLock { $0 += 86400 }
        #expect(try await hub.pruneSightings(retain: 7 * 86400, batch: 3) == 0)
        #expect(try store.sightingCount(venue: "tiny") == 10)
        now.withLock { $0 += 7 * 86400 }
        #expect(try await hub.pruneSightings(retain: 7 * 86400, batch: 3) == 10)
        #expect(try store.sightingCount(venue: "tiny") == 0)
        #expect(try await hub.pruneSightings(retain: .infinity) == 0)
        let text = metrics.text()
        #expect(text.contains("indoor_sightings_pruned_total 10"))
        #expect(text.contains("indoor_store_oldest_sighting_seconds 0"))
        #expect(text.contains("indoor_store_bytes "))
    }

    @Test func healthSaysTheStoresSizeAndOldestSighting() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue()
            _ = try await client.post(#"{"venue": "tiny", "sightings": \#(ServerFixture.walk)}"#)
            let storage = try await client.get("/health", key: nil).json["storage"] as? [String: Any]
            #expect((storage?["bytes"] as? Int ?? 0) > 0)
            let oldest = storage?["oldestSighting"] as? Double ?? 0
            #expect(abs(oldest - Date().timeIntervalSince1970) < 600)
        }
    }
}
