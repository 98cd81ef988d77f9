import Foundation
import IndoorGeofencing
import IndoorModel

/// A seeded synthetic venue and crowd for ``ZoneEngine`` benchmarks and regression tests.
///
/// The venue is a grid of 20 m × 20 m cells, one zone per cell, on two floors (even zones on floor 0, odd
/// zones on floor 1, every seventh zone on any floor). Each zone has one fence, a circle (radius 3–7 m)
/// or a polygon (a random quadrilateral of 6–14 m), placed at random in its cell; every tenth zone also has
/// a geoline along its cell's east edge. Zone rules vary with the index: dwell events, no check-out,
/// re-trigger times, the lost rule off. Devices random-walk (0.5–1.5 m/s, turning) over the whole venue,
/// bouncing off its walls, and report one fix per second (noise σ 1.5 m, accuracy 1–5 m), at staggered
/// times inside the second; now and then a device goes silent for 30–120 s, or changes floor.
/// Same seed, same workload.
public struct ZoneWorkload: Sendable {
    /// Side of a zone's cell, metres.
    package static let cellMeters = 20.0

    /// The generated zones, one per cell.
    public let zones: [Zone]
    /// Venue extent along x, metres.
    public let width: Double
    /// Venue extent along y, metres.
    public let height: Double
    /// Number of walking devices.
    public let devices: Int
    /// Seconds of data time (one fix per device per second).
    public let seconds: Int
    /// Seed of the workload's generator.
    public let seed: UInt64

    /// - Parameters:
    ///   - devices: Number of walking devices.
    ///   - zones: Number of zones (one fence each; a tenth also have a geoline).
    ///   - seconds: Seconds of data time (one fix per device per second, minus silences).
    ///   - seed: The generator's seed.
    public init(devices: Int, zones count: Int, seconds: Int, seed: UInt64 = 1) {
        self.devices = max(0, devices)
        self.seconds = max(0, seconds)
        self.seed = seed
        let count = max(1, count)
        let columns = Int(Double(count).squareRoot().rounded(.up))
        let rows = (count + columns - 1) / columns
        let cell = Self.cellMeters
        width = Double(columns) * cell
        height = Double(rows) * cell
        var random = SplitMix64(seed: seed, stream: 1)
        var zones: [Zone] = []
        for index in 0..<count {
            let x0 = Double(index % columns) * cell
            let y0 = Double(index / columns) * cell
            let floor: Int? = index % 7 == 6 ? nil : index % 2
            let fence: ZoneFence
            if index % 2 == 0 {
                let radius = random.uniform(3...7)
                let center = Point2D(
                    x: x0 + random.uniform(radius...(cell - radius)), y: y0 + random.uniform(radius...(cell - radius)))
                fence = .circle(center: center, radius: radius, floor: floor)
            } else {
                let size = random.uniform(6...14)
                let cx = x0 + random.uniform((size / 2)...(cell - size / 2))
                let cy = y0 + random.uniform((size / 2)...(cell - size / 2))
                let half = size / 2
                // A convex quadrilateral with jittered corners, counter-clockwise.
                let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map { sx, sy in
                    Point2D(x: cx + sx * half * random.uniform(0.6...1), y: cy + sy * half * random.uniform(0.6...1))
                }
                fence = .polygon(Polygon(corners), floor: floor)
            }
            var geolines: [ZoneGeoline] = []
            if index % 10 == 3 {
                geolines.append(
                    ZoneGeoline(
                        id: "gate-\(index)", floor: floor,
                        points: [
                            Point2D(x: x0 + cell, y: y0 + 2), Point2D(x: x0 + cell - 1, y: y0 + cell / 2),
                            Point2D(x: x0 + cell, y: y0 + cell - 2),
                        ]))
            }
            zones.append(
                Zone(
                    id: "z\(index)", name: "Zone \(index)", fences: [fence], geolines: geolines,
                    checkOutEnabled: index % 5 != 4, checkOutTime: index % 3 == 1 ? 3 : 5,
                    lostTimeout: index % 6 == 5 ? nil : 60, dwellThreshold: index % 3 == 0 ? 20 : nil,
                    retriggerTime: index % 4 == 1 ? 20 : 0, data: ["cell": String(index)]))
        }
        self.zones = zones
    }

    /// The fixes, one array per second of data time, each in time order (device `i` of `n` reports at
    /// `second + 0.9 · i / n`).
    public func fixesBySecond() -> [[Fix]] {
        struct Walker {
            var x, y, heading, speed: Double
            var floor: Int
            var silentUntil: Int
        }
        var random = SplitMix64(seed: seed, stream: 2)
        var walkers = (0..<devices).map { _ in
            Walker(
                x: random.uniform(0...width), y: random.uniform(0...height),
                heading: random.uniform(0...(2 * Double.pi)), speed: random.uniform(0.5...1.5),
                floor: random.index(below: 2), silentUntil: 0)
        }
        let names = (0..<devices).map { "device-\($0)" }
        var result: [[Fix]] = []
        result.reserveCapacity(seconds)
        for second in 0..<seconds {
            var fixes: [Fix] = []
            fixes.reserveCapacity(devices)
            for index in walkers.indices {
                var walker = walkers[index]
                walker.heading += random.gaussian(deviation: 0.5)
                walker.x += walker.speed * cos(walker.heading)
                walker.y += walker.speed * sin(walker.heading)
                if walker.x < 0 || walker.x > width {
                    walker.x = min(max(walker.x, 0), width)
                    walker.heading = Double.pi - walker.heading
                }
                if walker.y < 0 || walker.y > height {
                    walker.y = min(max(walker.y, 0), height)
                    walker.heading = -walker.heading
                }
                if random.unit() < 0.001 { walker.floor = 1 - walker.floor }
                if walker.silentUntil <= second, random.unit() < 0.002 {
                    walker.silentUntil = second + 30 + random.index(below: 91)
                }
                let noiseX = random.gaussian(deviation: 1.5)
                let noiseY = random.gaussian(deviation: 1.5)
                let accuracy = random.uniform(1...5)
                walkers[index] = walker
                guard walker.silentUntil <= second else { continue }
                fixes.append(
                    Fix(
                        time: Double(second) + 0.9 * Double(index) / Double(max(devices, 1)), device: names[index],
                        position: Point3D(x: walker.x + noiseX, y: walker.y + noiseY, z: 1.2), floor: walker.floor,
                        accuracy: accuracy, confidence: 0.5, method: "workload"))
            }
            result.append(fixes)
        }
        return result
    }

    /// A 64-bit FNV-1a digest of an event stream (every field, in order), to pin a run's output.
    ///
    /// The fields that name what checked a device in (``ZoneEvent/fence``, ``ZoneEvent/beacon``,
    /// ``ZoneEvent/proximity``) came later and are left out, so digests stay comparable with earlier runs; the
    /// workload's zones have no fence ids and no beacons, so they only add each fence's index.
    public struct Digest: Hashable, Sendable {
        public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325
        public private(set) var count = 0

        public init() {}

        public mutating func add(_ event: ZoneEvent) {
            let text = [
                event.kind.rawValue, String(event.time), event.zone, event.zoneName, event.device,
                event.trigger.rawValue, event.geoline ?? "-", event.direction?.rawValue ?? "-",
                event.willCheckOut.map { String($0) } ?? "-", event.checkIn.map { String($0) } ?? "-",
                event.departure.map { String($0) } ?? "-", event.reason?.rawValue ?? "-",
                event.dwell.map { String($0) } ?? "-",
                event.data.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","),
                String(event.zoneEnabled),
            ].joined(separator: "|")
            for byte in text.utf8 {
                value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
            value = (value ^ 0x0A) &* 0x0000_0100_0000_01B3
            count += 1
        }

        public mutating func add(_ events: [ZoneEvent]) {
            for event in events { add(event) }
        }
    }
}
