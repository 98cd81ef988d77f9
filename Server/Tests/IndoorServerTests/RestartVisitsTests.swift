import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorServer
import Synchronization
import Testing

/// What happened once is stored once: a server restarted (a new hub over the same store, as after SIGTERM or
/// `kill -9`) never adds, reopens or closes a visit, nor stores a zone event, that the store already has.
@Suite struct RestartVisitsTests {
    /// Two rooms 30 m apart, two nodes in each; a device in a room hears that room's nodes only.
    static let venueJSON = """
        {"id": "two", "name": "Two rooms",
         "nodes": [{"id": "w1", "x": 0, "y": 0}, {"id": "w2", "x": 4, "y": 0},
                   {"id": "e1", "x": 30, "y": 0}, {"id": "e2", "x": 34, "y": 0}],
         "zones": [
           {"id": "west", "name": "West", "fences": [{"polygon": [[-5, -5], [9, -5], [9, 5], [-5, 5]]}], "checkOutTime": 2},
           {"id": "east", "name": "East", "fences": [{"polygon": [[25, -5], [39, -5], [39, 5], [25, 5]]}], "checkOutTime": 2}]}
        """
    static let origin = 1_000_000.0

    /// The issue's case: a device sits in a room for five seconds and is lost a minute later; the server restarts.
    /// The activity log keeps one visit, and no second check-out is stored.
    @Test(arguments: StoreKind.tested)
    func aLostDeviceIsNotCheckedInAndOutAgainAfterARestart(store kind: StoreKind) async throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let now = Mutex(Self.origin)
        let clock: @Sendable () -> Double = { now.withLock { $0 } }
        let first = try await VenueHub(store: try await database.open(), metrics: ServerMetrics(), wallClock: clock)
        _ = try await first.putVenue(id: "two", json: Data(Self.venueJSON.utf8))
        for second in 0..<5 {
            now.withLock { $0 = Self.origin + Double(second) }
            _ = try await first.ingest(venue: "two", sightings: Self.heard(device: "p", in: "w", at: Double(second)))
        }
        for second in 5..<80 {
            now.withLock { $0 = Self.origin + Double(second) }
            try await first.tick()
        }
        let store = try await database.open()
        let before = try await Self.visits(store)
        #expect(before.map(\.reason) == ["lost"])
        let eventsBefore = try await Self.zoneEvents(store)
        for restart in 0..<3 {
            now.withLock { $0 += 5 }
            let hub = try await VenueHub(store: try await database.open(), metrics: ServerMetrics(), wallClock: clock)
            for _ in 0..<70 {
                now.withLock { $0 += 1 }
                try await hub.tick()
            }
            #expect(try await Self.visits(store) == before, "restart \(restart)")
            #expect(try await Self.zoneEvents(store) == eventsBefore, "restart \(restart)")
        }
    }

    /// A replayed day of three devices walking between two rooms with pauses, once without restarts and once
    /// restarted at random points (seeded): the same visits (device, zone, reason; times within a second) and the
    /// same zone events, in order.
    @Test(arguments: StoreKind.tested)
    func restartsAtRandomPointsOfADayChangeNothingStored(store kind: StoreKind) async throws {
        let day = Self.day(seed: 0x5EED_D4A1, seconds: 900)
        let plain = try await Self.run(day, kind: kind, restartAt: [])
        var random = SplitMix64(seed: 0x0D15_EA5E)
        let restarts = Set((0..<8).map { _ in Int(random.next() % 900) })
        let restarted = try await Self.run(day, kind: kind, restartAt: restarts)
        #expect(plain.visits.count > 10, "the day makes visits of both kinds")
        #expect(Set(plain.visits.compactMap(\.reason)) == ["left", "lost"])
        #expect(restarted.visits.map(\.key) == plain.visits.map(\.key))
        for (a, b) in zip(restarted.visits, plain.visits) {
            #expect(abs(a.checkIn - b.checkIn) <= 1, "\(a) against \(b)")
            #expect(abs((a.checkOut ?? 0) - (b.checkOut ?? 0)) <= 1, "\(a) against \(b)")
        }
        #expect(restarted.events == plain.events)
    }

    /// What a run stored: the visits in check-in order and the zone events in stored order.
    struct Outcome {
        var visits: [Visit]
        var events: [String]
    }

    /// Feeds `day` (per second of data time: the sightings of that second) to a hub, ticking each second, and makes a
    /// new hub over the same store before each second in `restartAt`.
    static func run(_ day: [[Sighting]], kind: StoreKind, restartAt: Set<Int>) async throws -> Outcome {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let now = Mutex(origin)
        let clock: @Sendable () -> Double = { now.withLock { $0 } }
        var hub = try await VenueHub(store: try await database.open(), metrics: ServerMetrics(), wallClock: clock)
        _ = try await hub.putVenue(id: "two", json: Data(venueJSON.utf8))
        for (second, sightings) in day.enumerated() {
            now.withLock { $0 = origin + Double(second) }
            if restartAt.contains(second) {
                hub = try await VenueHub(store: try await database.open(), metrics: ServerMetrics(), wallClock: clock)
            }
            if sightings.isEmpty {
                try await hub.tick()
            } else {
                _ = try await hub.ingest(venue: "two", sightings: sightings)
            }
        }
        for second in day.count..<(day.count + 90) {
            now.withLock { $0 = origin + Double(second) }
            try await hub.tick()
        }
        let store = try await database.open()
        return Outcome(visits: try await visits(store), events: try await zoneEvents(store))
    }

    /// Three devices, each moving between the rooms (10–60 s in one) with silences of 0–100 s between stays, heard
    /// every second by the room's two nodes.
    static func day(seed: UInt64, seconds: Int) -> [[Sighting]] {
        var random = SplitMix64(seed: seed)
        var day = Array(repeating: [Sighting](), count: seconds)
        for device in ["anna", "ben", "cleo"] {
            var second = Int(random.next() % 20)
            var room = random.next() % 2 == 0 ? "w" : "e"
            while second < seconds {
                let stay = 10 + Int(random.next() % 50)
                for t in second..<min(second + stay, seconds) {
                    day[t] += heard(device: device, in: room, at: Double(t) + 0.1 * Double(device.count % 3))
                }
                second += stay + Int(random.next() % 100)
                room = room == "w" ? "e" : "w"
            }
        }
        return day
    }

    /// `device` heard by both nodes of room `room` (`w` or `e`) at `time` seconds.
    static func heard(device: String, in room: String, at time: Double) -> [Sighting] {
        [
            Sighting(time: time, device: device, node: "\(room)1", rssi: -56),
            Sighting(time: time, device: device, node: "\(room)2", rssi: -58),
        ]
    }

    static func visits(_ store: any LocationStore) async throws -> [Visit] {
        try await store.visits(VisitQuery(venue: "two", limit: 10_000)).visits.sorted {
            ($0.checkIn, $0.device, $0.zone) < ($1.checkIn, $1.device, $1.zone)
        }
    }

    /// The stored zone events as `kind device zone`, in stored order.
    static func zoneEvents(_ store: any LocationStore) async throws -> [String] {
        try await store.events(venue: "two", after: 0, limit: 100_000).compactMap { stored in
            guard case .zone(let zone) = stored.event else { return nil }
            return "\(zone.kind) \(zone.device) \(zone.zone)"
        }
    }
}

extension Visit {
    /// What must be the same in both runs: who, where and how it ended.
    fileprivate var key: String { "\(device) \(zone) \(reason ?? "open")" }
}
