import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorGeofencing
import IndoorModel
import IndoorServer
import IndoorServerTestSupport
import Synchronization
import Testing

/// Occupancy events (issue 52 item 1): stored with the zone events that cause them, equal to the store's open visits
/// after every commit of a replayed day (erasures and lost devices included), and carried by the stream.
@Suite struct OccupancyEventTests {
    /// Each zone's count from the store's open visits of `venue` (distinct devices), zones with nobody left out.
    static func openCounts(_ store: any LocationStore, venue: String) async throws -> [String: Int] {
        var members: [String: Set<String>] = [:]
        var before: Int64?
        repeat {
            let page = try await store.visits(VisitQuery(venue: venue, limit: 1000, before: before, openOnly: true))
            for visit in page.visits { members[visit.zone, default: []].insert(visit.device) }
            before = page.nextBefore
        } while before != nil
        return members.mapValues(\.count)
    }

    /// Every stored event of `venue`, oldest first.
    static func events(_ store: any LocationStore, venue: String) async throws -> [StoredEvent] {
        var all: [StoredEvent] = []
        while true {
            let page = try await store.events(venue: venue, after: all.last?.id ?? 0, limit: 1000)
            all += page
            if page.count < 1000 { return all }
        }
    }

    /// The occupancy events of `events`, checked as a chain: per zone, each starts from the count the previous one
    /// ended at (0 first), its kind says how the count moved, and `occupied` says whether it is above 0. Returns each
    /// zone's last count (zones at 0 left out).
    static func chain(_ events: [StoredEvent], venue: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for stored in events {
            guard case .occupancy(let event) = stored.event else { continue }
            let before = counts[event.zone] ?? 0
            #expect(event.previousCount == before, "\(event)")
            #expect(event.count != before && event.count >= 0, "\(event)")
            #expect(event.occupied == (event.count > 0))
            #expect(event.venue == venue)
            let kind: ZoneOccupancy.Change.Kind = before == 0 ? .occupied : event.count == 0 ? .empty : .changed
            #expect(event.kind == kind, "\(event)")
            counts[event.zone] = event.count
        }
        return counts.filter { $0.value > 0 }
    }

    /// The demo office's walkers replayed batch by batch (a venue's day, shortened): after every commit the occupancy
    /// events say what the store's open visits say; so after a device in a room is erased, and after the venue goes
    /// quiet and every device is lost. Each occupancy event directly follows the zone event that caused it.
    @Test(arguments: StoreKind.tested)
    func occupancyEqualsTheOpenVisitsAfterEveryCommitOfAReplayedDay(store kind: StoreKind) async throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let store = try await database.open()
        let clock = Mutex(1_000_000.0)
        let hub = try await VenueHub(store: store, metrics: ServerMetrics(), wallClock: { clock.withLock { $0 } })
        let demo = try DemoVenue(devices: 6, floors: 1, duration: 480, seed: 7)
        _ = try await hub.putVenue(id: "demo", json: try demo.venue.encodeJSON())
        let batches = Dictionary(grouping: demo.sightings) { Int($0.time / 5) }.sorted { $0.key < $1.key }
        var erased: String?
        var checks = 0
        var occupiedSeen = 0
        for (index, batch) in batches.map({ ($0.key, $0.value) }) {
            clock.withLock { $0 = 1_000_000 + Double(index * 5) }
            _ = try await hub.ingest(venue: "demo", sightings: batch)
            let open = try await Self.openCounts(store, venue: "demo")
            #expect(Self.chain(try await Self.events(store, venue: "demo"), venue: "demo") == open, "at \(index)")
            #expect(hub.zoneStates(venue: "demo").filter { $0.count > 0 }.count == open.count)
            occupiedSeen = max(occupiedSeen, open.values.reduce(0, +))
            checks += 1
            if erased == nil { #expect(Self.unmatched(try await Self.events(store, venue: "demo")) == 0) }
            // Half-way, a device in a room is erased: the rooms it was in count one fewer at once.
            if erased == nil, index >= batches.count / 2,
                let device = try await store.visits(VisitQuery(venue: "demo", limit: 1, openOnly: true)).visits.first?
                    .device
            {
                erased = device
                _ = try await hub.eraseDevice(device, venue: nil)
                let after = try await Self.openCounts(store, venue: "demo")
                #expect(Self.chain(try await Self.events(store, venue: "demo"), venue: "demo") == after)
            }
        }
        #expect(checks == batches.count && occupiedSeen >= 2 && erased != nil)
        // Quiet for ten minutes: every device is lost, every room empties.
        clock.withLock { $0 += 600 }
        try await hub.tick(quiet: 1)
        let events = try await Self.events(store, venue: "demo")
        #expect(try await Self.openCounts(store, venue: "demo") == [:])
        #expect(Self.chain(events, venue: "demo") == [:])
        // Every occupancy event has its zone's name, and names no device.
        let names = Dictionary(uniqueKeysWithValues: demo.venue.zones.map { ($0.id, $0.name) })
        for stored in events {
            guard let occupancy = Self.occupancy(stored) else { continue }
            #expect(occupancy.zoneName == names[occupancy.zone])
            let json = try #require(String(data: try JSONFormat.encoder().encode(occupancy), encoding: .utf8))
            #expect(!json.contains("\"device\""))
        }
    }

    /// How many occupancy events of `events` do not directly follow a zone event of their zone at their time (an
    /// erasure's or a stale visit's do not; nor one whose zone event was erased since).
    static func unmatched(_ events: [StoredEvent]) -> Int {
        var unmatched = 0
        for (previous, stored) in zip(events, events.dropFirst()) {
            guard let occupancy = occupancy(stored) else { continue }
            guard case .zone(let zone) = previous.event, zone.zone == occupancy.zone, zone.time == occupancy.time
            else {
                unmatched += 1
                continue
            }
        }
        return unmatched
    }

    static func occupancy(_ stored: StoredEvent) -> OccupancyEvent? {
        if case .occupancy(let event) = stored.event { event } else { nil }
    }

    /// A restart goes on from the stored open visits: the next change of a zone starts from the count stored before.
    @Test(arguments: StoreKind.tested)
    func aRestartGoesOnFromTheStoredCounts(store kind: StoreKind) async throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let clock = Mutex(1_000_000.0)
        let walk = { (device: String, start: Double) in
            ([(0.0, "n1"), (1, "n1")] + (10...16).map { (Double($0), "n2") }).map {
                Sighting(time: start + $0.0, device: device, node: $0.1, rssi: -59)
            }
        }
        do {
            let hub = try await VenueHub(
                store: try await database.open(), metrics: ServerMetrics(), wallClock: { clock.withLock { $0 } })
            _ = try await hub.putVenue(id: "tiny", json: Data(ServerFixture.venueJSON.utf8))
            _ = try await hub.ingest(venue: "tiny", sightings: walk("a", 0))
            #expect(hub.zoneStates(venue: "tiny").first { $0.zone == "east" }?.count == 1)
        }
        let store = try await database.open()
        let hub = try await VenueHub(store: store, metrics: ServerMetrics(), wallClock: { clock.withLock { $0 } })
        #expect(hub.zoneStates(venue: "tiny").first { $0.zone == "east" }?.count == 1)
        _ = try await hub.ingest(venue: "tiny", sightings: walk("b", 17))
        let events = try await Self.events(store, venue: "tiny")
        #expect(Self.chain(events, venue: "tiny") == ["east": 2])
        #expect(try await Self.openCounts(store, venue: "tiny") == ["east": 2])
    }

    /// A visit left open in the store that no session holds (its device never heard again after a restart) is closed
    /// as stale by retention: its zone's count goes down at once, with an occupancy event at the venue's present.
    @Test(arguments: StoreKind.tested)
    func aStaleVisitClosedTakesItsCountOff(store kind: StoreKind) async throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let store = try await database.open()
        let clock = Mutex(1_000_000.0)
        _ = try await VenueHub(store: store, metrics: ServerMetrics(), wallClock: { clock.withLock { $0 } })
            .putVenue(id: "tiny", json: Data(ServerFixture.venueJSON.utf8))
        // Before this start: a check-in of a device that is never heard again.
        _ = try await store.commit(
            IngestBatch(
                venue: "tiny", sightings: [], events: [PostgresStoreTests.zone(.checkIn, "ghost", "east", 1)],
                receivedAt: 1_000_000))
        let hub = try await VenueHub(store: store, metrics: ServerMetrics(), wallClock: { clock.withLock { $0 } })
        #expect(hub.zoneStates(venue: "tiny").first { $0.zone == "east" }?.count == 1)
        // Another device, in no room, moves the venue's present on to t = 110.
        let west = (0...10).map { Sighting(time: 100 + Double($0), device: "west", node: "n1", rssi: -50) }
        _ = try await hub.ingest(venue: "tiny", sightings: west)
        let pruned = try await hub.prune(Retention(openVisits: 10))
        #expect(pruned.closedVisits == 1)
        #expect(try await Self.openCounts(store, venue: "tiny") == [:])
        #expect(hub.zoneStates(venue: "tiny").first { $0.zone == "east" }?.count == 0)
        let last = try #require(try await Self.events(store, venue: "tiny").compactMap(Self.occupancy).last)
        #expect(last.zone == "east" && last.zoneName == "East room" && last.kind == .empty)
        #expect(last.count == 0 && last.previousCount == 1 && last.time >= 110)
    }

    /// The stream carries each occupancy event (`event: occupancy`, its JSON under `occupancy`, as the OpenAPI
    /// document says), after the zone event that caused it: east occupied at p's check-in, empty at its check-out.
    @Test(arguments: StoreKind.tested)
    func theStreamCarriesTheOccupancyEvents(store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            async let streamed = client.execute(
                uri: "/v1/stream?venue=tiny", method: .get, headers: ServerFixture.headers(ServerFixture.read))
            try await Task.sleep(for: .milliseconds(300))
            let ingest = try await client.post(#"{"venue": "tiny", "sightings": \#(ServerFixture.walk)}"#)
            #expect(ingest.status == .ok)
            // The ingest answer keeps its fixes and zone events only.
            #expect(!ingest.text.contains("occupied"))
            try await Task.sleep(for: .milliseconds(300))
            _ = try await client.putVenue(ServerFixture.renamedVenueJSON)  // a changed venue ends the stream
            let blocks = try await streamed.text.components(separatedBy: "\n\n")
            let occupancy = blocks.filter { $0.contains("event: occupancy") }
            #expect(occupancy.count == 2, "\(blocks)")
            var payloads: [JSONValue] = []
            for block in occupancy {
                let data = try #require(block.split(separator: "\n").first { $0.hasPrefix("data: ") })
                let envelope = try JSONValue.parse(String(data.dropFirst(6)))
                #expect(try DeviceRoomTests.validator().problems(envelope, schema: "StreamEvent") == [])
                #expect(envelope["type"] == .string("occupancy"))
                payloads.append(try #require(envelope["occupancy"]))
            }
            #expect(payloads.map { $0["event"] } == [.string("occupied"), .string("empty")])
            #expect(payloads.map { $0["count"] } == [.number(1), .number(0)])
            #expect(payloads.map { $0["occupied"] } == [.bool(true), .bool(false)])
            #expect(payloads.allSatisfy { $0["zone"] == .string("east") && $0["zoneName"] == .string("East room") })
            #expect(payloads.allSatisfy { $0["venue"] == .string("tiny") && $0["device"] == nil })
            // Each follows its zone event.
            for block in occupancy {
                guard let index = blocks.firstIndex(of: block), index > 0 else { continue }
                #expect(blocks[index - 1].contains("event: zone"))
            }
        }
    }
}
