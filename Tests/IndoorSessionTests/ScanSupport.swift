import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorSession

/// A 20 m × 20 m hall with a beacon in each corner and one in the middle, serving the geofence `hall`.
let hallAnchor = GeoAnchor(origin: GeoCoordinate(latitude: 52.5, longitude: 13.4))
let hallUUID = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0") ?? UUID()

func hallVenue(id: String = "hall", geofences: [String] = ["hall"], anchor: GeoAnchor? = hallAnchor) -> Venue {
    let corners = [(0.0, 0.0), (20.0, 0.0), (0.0, 20.0), (20.0, 20.0), (10.0, 10.0)]
    let nodes = corners.enumerated().map { index, corner in
        Node(
            id: "\(id)-\(index + 1)", beacon: BeaconID(uuid: hallUUID, major: 1, minor: UInt16(index + 1)),
            position: Point3D(x: corner.0, y: corner.1, z: 0))
    }
    let outline = Polygon([Point2D(x: 0, y: 0), Point2D(x: 20, y: 0), Point2D(x: 20, y: 20), Point2D(x: 0, y: 20)])
    return Venue(
        id: id, name: id, floors: [Floor(level: 0, name: "Hall", outline: outline)], nodes: nodes, anchor: anchor,
        geofences: geofences)
}

/// How far the default method's (`auto`) answer in ``hallVenue(id:geofences:anchor:)`` may lie from where the phone
/// stands, metres. Five beacons over 400 m² leave the path-loss posterior broad, so its mean is pulled towards the
/// hall's middle (2.0–2.7 m off at the places these tests use), while trilateration, whose model the noise-free
/// readings follow exactly, lands within a metre; on realistic sparse offices the default is the better of the two
/// (docs/POSITIONING.md).
let hallTolerance = 3.0

/// What a phone standing at `point` hears from every node of `venue` in `seconds` (every 0.5 s, no noise: the
/// log-distance mean with the default calibration, −59 dBm at 1 m, exponent 2), as beacon sightings.
func standing(
    at point: Point2D, in venue: Venue, from start: Double = 1_000, seconds: Double, device: String = "phone",
    only nodes: Int? = nil
) -> [Sighting] {
    var sightings: [Sighting] = []
    var time = start
    while time < start + seconds {
        for node in venue.nodes.prefix(nodes ?? venue.nodes.count) {
            let distance = max(point.distance(to: node.position.horizontal), 0.5)
            let rssi = (-59 - 20 * log10(distance)).rounded()
            let source: SightingSource = node.beacon.map { .beacon($0) } ?? .node(node.id)
            sightings.append(Sighting(time: time, device: device, source: source, rssi: rssi))
        }
        time += 0.5
    }
    return sightings
}

/// A source that replays `sightings` and ends.
func replaying(_ sightings: [Sighting]) -> AsyncStream<Sighting> {
    AsyncStream { continuation in
        for sighting in sightings {
            continuation.yield(sighting)
        }
        continuation.finish()
    }
}

/// A source the test feeds by hand; every opening gets the same stream (tests open it once).
final class HandFedSource: Sendable {
    let stream: AsyncStream<Sighting>
    let feed: AsyncStream<Sighting>.Continuation

    init() {
        (stream, feed) = AsyncStream.makeStream(of: Sighting.self)
    }
}

/// A small simulated office (seeded) and the windows in which a walker stands still for `seconds`.
struct StillWindows {
    let simulated: SimulatedDataset

    init(seed: UInt64 = 3, duration: Double = 240, roomsPerSide: Int = 8) throws {
        var options = SimulatorOptions()
        options.seed = seed
        options.roomsPerSide = roomsPerSide
        options.devices = 3
        options.duration = duration
        simulated = try Simulator(options: options).run()
    }

    /// Start times (every `step` s) at which `device` does not move for `seconds`.
    func starts(device: String, seconds: Double, step: Double = 5) -> [Double] {
        guard let path = simulated.trajectories[device] else { return [] }
        var result: [Double] = []
        var start = 1.0
        while start + seconds <= simulated.options.duration {
            let first = path.state(at: start).point
            let still = stride(from: start, through: start + seconds, by: 0.5).allSatisfy {
                path.state(at: $0).point.distance(to: first) < 0.05
            }
            if still { result.append(start) }
            start += step
        }
        return result
    }
}
