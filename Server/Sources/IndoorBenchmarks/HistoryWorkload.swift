import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorServer

/// The store of `indoor-bench history`: a venue of `zones` rooms in a row along a corridor, and `devices` people
/// walking between them, one fix a second each, for `days` days: each stays in a room for 1–30 minutes (uniform),
/// walks the corridor for 20–60 s and enters another room. Each room visit is a fence check-in and, 5 s after the
/// departure, a check-out with its dwell, as the session would store them. Seeded: the same options give the same
/// store.
struct HistoryWorkload: Sendable {
    var days: Double
    var devices: Int
    var zones: Int
    /// Data time of the first fix, Unix seconds (2026-11-16T00:00:00Z, a Monday).
    var start: Double = 1_795_132_800
    var seed: UInt64 = 53

    /// Seconds of data.
    var seconds: Int { Int((days * 86400).rounded()) }

    /// The venue: one floor, rooms of 10 m × 8 m side by side north of a 3 m corridor.
    var venue: Venue {
        let rooms = (0..<zones).map { index in
            let x = Double(index) * 10
            return Zone(
                id: "room-\(index)", name: "Room \(index)",
                fences: [.polygon(Self.rectangle(x, 3, x + 10, 11))])
        }
        let width = Double(zones) * 10
        return Venue(
            id: "bench", name: "History benchmark",
            floors: [Floor(level: 0, name: "Ground", outline: Self.rectangle(0, 0, width, 11))],
            nodes: [Node(id: "n0", position: Point3D(x: 0, y: 0, z: 0))], zones: rooms)
    }

    /// The rectangle from (`x0`, `y0`) to (`x1`, `y1`), metres.
    static func rectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Polygon {
        Polygon([Point2D(x: x0, y: y0), Point2D(x: x1, y: y0), Point2D(x: x1, y: y1), Point2D(x: x0, y: y1)])
    }

    /// One device's walk, second by second: where it is and in which room (`nil`: the corridor).
    struct Walker {
        var device: String
        var random: SplitMix64
        var room: Int?
        /// When the current stay or walk ends, seconds from the start.
        var until: Int
        /// The current room visit's check-in time, data time.
        var checkIn: Double = 0
        var x: Double
        var y: Double
    }

    /// The batches of `secondsPerBatch` seconds each, in order, one at a time (a week does not fit in memory).
    struct Batches {
        let workload: HistoryWorkload
        let secondsPerBatch: Int
        var walkers: [Walker]
        var second = 0

        /// The next batch, its fixes and zone events in time order (a check-out is listed at its departure);
        /// `nil` after the last.
        mutating func next() -> IngestBatch? {
            let workload = self.workload
            guard second < workload.seconds else { return nil }
            let end = min(workload.seconds, second + secondsPerBatch)
            var events: [ServerEvent] = []
            events.reserveCapacity((end - second) * walkers.count + walkers.count)
            for time in second..<end {
                let now = workload.start + Double(time)
                for index in walkers.indices {
                    workload.step(&walkers[index], second: time, now: now, into: &events)
                }
            }
            second = end
            return IngestBatch(venue: "bench", sightings: [], events: events, receivedAt: workload.start + Double(end))
        }
    }

    /// The batches of `secondsPerBatch` seconds.
    func batches(secondsPerBatch: Int) -> Batches {
        let walkers = (0..<devices).map { index in
            var random = SplitMix64(seed: seed, stream: UInt64(index))
            let room = Int(random.next() % UInt64(zones))
            return Walker(
                device: "device-\(index)", random: random, room: room, until: 0, x: Double(room) * 10 + 5, y: 7)
        }
        return Batches(workload: self, secondsPerBatch: max(1, secondsPerBatch), walkers: walkers)
    }

    /// The walker's fix at `second`, after its check-in or check-out when its stay or walk ends then.
    func step(_ walker: inout Walker, second: Int, now: Double, into events: inout [ServerEvent]) {
        if second >= walker.until {
            if let room = walker.room {
                if second > 0 {
                    // Leaves the room: checked out 5 s after the departure (the zone's check-out time).
                    let departure = now - 1
                    events.append(
                        .zone(
                            ZoneEvent(
                                kind: .checkOut, time: departure + 5, zone: "room-\(room)", zoneName: "Room \(room)",
                                device: walker.device, trigger: .fence, fence: "0", checkIn: walker.checkIn,
                                departure: departure, reason: .left, dwell: departure - walker.checkIn)))
                }
                walker.room = nil
                walker.until = second + 20 + Int(walker.random.next() % 41)
            } else {
                let room = Int(walker.random.next() % UInt64(zones))
                walker.room = room
                walker.checkIn = now
                walker.until = second + 60 + Int(walker.random.next() % 1741)
                events.append(
                    .zone(
                        ZoneEvent(
                            kind: .checkIn, time: now, zone: "room-\(room)", zoneName: "Room \(room)",
                            device: walker.device, trigger: .fence, fence: "0", willCheckOut: true)))
            }
        }
        let jitter = Double(walker.random.next() % 1000) / 1000 - 0.5
        if let room = walker.room {
            walker.x = Double(room) * 10 + 5 + jitter * 6
            walker.y = 7 + jitter * 4
        } else {
            walker.x = min(max(0.5, walker.x + jitter * 2), Double(zones) * 10 - 0.5)
            walker.y = 1.5
        }
        events.append(
            .fix(
                Fix(
                    time: now, device: walker.device, position: Point3D(x: walker.x, y: walker.y, z: 0), floor: 0,
                    accuracy: 2.5, confidence: 0.8, method: "bench")))
    }
}
