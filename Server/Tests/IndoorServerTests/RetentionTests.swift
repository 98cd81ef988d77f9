import Foundation
import HummingbirdTesting
import IndoorGeofencing
import IndoorModel
import IndoorServer
import Synchronization
import Testing

/// Stored sightings, events and closed visits are kept for `--retain-sightings`, `--retain-events` and
/// `--retain-visits` and then deleted, a round at a time; open visits always stay.
@Suite("Retention of stored sightings, events and visits")
struct RetentionTests {
    static func sightings(_ device: String) -> [Sighting] {
        [
            Sighting(time: 1, device: device, node: "n1", rssi: -60),
            Sighting(time: 2, device: device, node: "n2", rssi: -61),
        ]
    }

    @Test(arguments: StoreKind.tested)
    func theOldestAreDeletedInRoundsAndTheRestKept(store: StoreKind) async throws {
        let database = try TestDatabase(store)
        defer { database.remove() }
        let store = try await database.open()
        for (device, receivedAt) in [("a", 100.0), ("b", 200.0), ("c", 300.0)] {
            _ = try await store.commit(
                IngestBatch(venue: "tiny", sightings: Self.sightings(device), events: [], receivedAt: receivedAt))
        }
        #expect(try await store.storage().oldestSighting == 100)
        #expect(try await store.storage().bytes > 0)
        // Rounds of 3 among the 3 oldest rows: 3 deleted (a, a, b), then 1 (b), then none older than 250 is left.
        #expect(try await store.pruneSightings(receivedBefore: 250, limit: 3) == 3)
        #expect(try await store.pruneSightings(receivedBefore: 250, limit: 3) == 1)
        #expect(try await store.pruneSightings(receivedBefore: 250, limit: 3) == 0)
        #expect(try await store.sightingCount(venue: "tiny") == 2)
        #expect(try await store.storage().oldestSighting == 300)
    }

    @Test(arguments: StoreKind.tested)
    func theHubKeepsSightingsForTheRetentionAndSaysSoInMetrics(store: StoreKind) async throws {
        let database = try TestDatabase(store)
        defer { database.remove() }
        let store = try await database.open()
        let now = Mutex(1_000_000.0)
        let metrics = ServerMetrics()
        let hub = try await VenueHub(store: store, metrics: metrics, wallClock: { now.withLock { $0 } })
        _ = try await hub.putVenue(id: "tiny", json: Data(ServerFixture.venueJSON.utf8))
        for device in ["a", "b", "c", "d", "e"] {
            _ = try await hub.ingest(venue: "tiny", sightings: Self.sightings(device))
        }
        #expect(try await store.sightingCount(venue: "tiny") == 10)
        now.withLock { $0 += 86400 }
        let week = Retention(sightings: 7 * 86400, events: .infinity, visits: .infinity)
        #expect(try await hub.prune(week, batch: 3).sightings == 0)
        #expect(try await store.sightingCount(venue: "tiny") == 10)
        now.withLock { $0 += 7 * 86400 }
        #expect(try await hub.prune(week, batch: 3).sightings == 10)
        #expect(try await store.sightingCount(venue: "tiny") == 0)
        #expect(try await hub.prune(Retention(sightings: .infinity, events: .infinity, visits: .infinity)).isEmpty)
        let text = metrics.text()
        #expect(text.contains("indoor_sightings_pruned_total 10"))
        #expect(text.contains("indoor_store_oldest_sighting_seconds 0"))
        #expect(text.contains("indoor_store_bytes "))
    }

    static func zone(_ kind: ZoneEvent.Kind, device: String, time: Double) -> ServerEvent {
        .zone(
            ZoneEvent(
                kind: kind, time: time, zone: "room", zoneName: "Room", device: device, trigger: .fence,
                checkIn: kind == .checkOut ? time - 5 : nil, reason: kind == .checkOut ? .left : nil,
                dwell: kind == .checkOut ? 5 : nil))
    }

    @Test(arguments: StoreKind.tested)
    func eventsAndClosedVisitsAreDeletedAfterTheirRetentionAndOpenVisitsStay(store: StoreKind) async throws {
        let database = try TestDatabase(store)
        defer { database.remove() }
        let store = try await database.open()
        // a: in and out at 100; b: in and out at 200; c: in at 300, still inside.
        for (device, storedAt) in [("a", 100.0), ("b", 200.0)] {
            _ = try await store.commit(
                IngestBatch(
                    venue: "tiny", sightings: [],
                    events: [
                        Self.zone(.checkIn, device: device, time: 1), Self.zone(.checkOut, device: device, time: 6),
                    ],
                    receivedAt: storedAt))
        }
        _ = try await store.commit(
            IngestBatch(
                venue: "tiny", sightings: [], events: [Self.zone(.checkIn, device: "c", time: 1)], receivedAt: 300))
        var storage = try await store.storage()
        #expect(storage.oldestEvent == 100)
        #expect(storage.oldestVisit == 100)
        // Events stored before 250 (a's and b's, two each), in rounds of 3 among the oldest rows.
        #expect(try await store.pruneEvents(storedBefore: 250, limit: 3) == 3)
        #expect(try await store.pruneEvents(storedBefore: 250, limit: 3) == 1)
        #expect(try await store.pruneEvents(storedBefore: 250, limit: 3) == 0)
        #expect(try await store.events(venue: "tiny", after: 0, limit: 10).map(\.event.device) == ["c"])
        // Visits closed before 1000: a's and b's; c's is open and stays however old.
        #expect(try await store.pruneVisits(closedBefore: 1000, limit: 1) == 1)
        #expect(try await store.pruneVisits(closedBefore: 1000, limit: 5) == 1)
        #expect(try await store.pruneVisits(closedBefore: 1000, limit: 5) == 0)
        let left = try await store.visits(VisitQuery(venue: "tiny")).visits
        #expect(left.map(\.device) == ["c"])
        #expect(left.first?.checkOut == nil)
        storage = try await store.storage()
        #expect(storage.oldestEvent == 300)
        #expect(storage.oldestVisit == nil)
    }

    @Test(arguments: StoreKind.tested)
    func theHubKeepsEventsAndVisitsForTheirOwnRetention(store: StoreKind) async throws {
        let database = try TestDatabase(store)
        defer { database.remove() }
        let store = try await database.open()
        let now = Mutex(1_000_000.0)
        let metrics = ServerMetrics()
        let hub = try await VenueHub(store: store, metrics: metrics, wallClock: { now.withLock { $0 } })
        _ = try await store.commit(
            IngestBatch(
                venue: "tiny", sightings: Self.sightings("a"),
                events: [Self.zone(.checkIn, device: "a", time: 1), Self.zone(.checkOut, device: "a", time: 6)],
                receivedAt: 1_000_000))
        let retention = Retention(sightings: 86400, events: 2 * 86400, visits: 3 * 86400)
        now.withLock { $0 += 1.5 * 86400 }
        #expect(try await hub.prune(retention) == Retention.Pruned(sightings: 2, events: 0, visits: 0))
        now.withLock { $0 += 86400 }
        #expect(try await hub.prune(retention) == Retention.Pruned(sightings: 0, events: 2, visits: 0))
        now.withLock { $0 += 86400 }
        #expect(try await hub.prune(retention) == Retention.Pruned(sightings: 0, events: 0, visits: 1))
        let text = metrics.text()
        #expect(text.contains("indoor_events_pruned_total 2"))
        #expect(text.contains("indoor_visits_pruned_total 1"))
        #expect(text.contains("indoor_store_oldest_event_seconds 0"))
    }

    @Test(arguments: StoreKind.tested)
    func healthSaysTheStoresSizeAndOldestSighting(store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue()
            _ = try await client.post(#"{"venue": "tiny", "sightings": \#(ServerFixture.walk)}"#)
            let health = try await client.get("/health").json
            #expect(health["store"] as? String == store.rawValue)
            let storage = health["storage"] as? [String: Any]
            #expect((storage?["bytes"] as? Int ?? 0) > 0)
            let oldest = storage?["oldestSighting"] as? Double ?? 0
            #expect(abs(oldest - Date().timeIntervalSince1970) < 600)
        }
    }
}
