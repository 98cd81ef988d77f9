import IndoorEvaluation
import IndoorModel

/// The demo: the simulated office of `IndoorEvaluation`'s ``Simulator``, with a zone per room, the simulator's
/// stairwell (a ``FloorConnection`` joining every floor, when there are several), the geofence ``geofence`` for
/// scans, and its walkers' sightings in time order.
public struct DemoVenue: Sendable {
    /// The venue, zones added; its connections are the simulator's (the stairwell, with several floors).
    public var venue: Venue
    /// Every walker's sightings, sorted by time (seconds from 0).
    public var sightings: [Sighting]
    /// The simulated site survey of the office (a walker surveying every room): `indoor serve --demo` learns from it
    /// in the background, as `indoor serve --survey` does from a real one (``VenueHub/surveys``).
    public var survey: Recording?
    /// Seconds of data the walk covers; the driver loops after it.
    public var duration: Double
    /// The geofence id the demo venue serves (`POST /v1/scans` with `"geofence": "demo"`).
    public static let geofence = "demo"

    /// Simulates `devices` walkers on `floors` floors (joined by the stairwell) for `duration` seconds (seeded: the
    /// same demo every run).
    /// - Throws: The simulator's ``SimulatorOptionsError`` for options it refuses (`floors` outside 1…50, say).
    public init(devices: Int = 6, floors: Int = 2, duration: Double = 600, seed: UInt64 = 1) throws {
        var options = SimulatorOptions()
        options.devices = devices
        options.floors = floors
        options.duration = duration
        options.seed = seed
        let simulated = try Simulator(options: options).run()
        var venue = simulated.venue
        venue.id = "demo"
        venue.name = "Demo office (simulated)"
        // The indoor provider's scans (`POST /v1/scans`) can be tried on it at once.
        venue.geofences = [Self.geofence]
        venue.zones = Self.rooms(options: options, floors: venue.floors.map(\.level))
        self.venue = venue
        self.sightings = simulated.dataset.test.sightings.sorted { $0.time < $1.time }
        self.survey = simulated.dataset.train
        self.duration = duration
    }

    /// One zone per room: south rooms along y 0…depth, north rooms beyond the corridor (the simulator's plan).
    static func rooms(options: SimulatorOptions, floors: [Int]) -> [Zone] {
        var zones: [Zone] = []
        let north = options.roomDepth + options.corridorWidth
        for level in floors {
            for index in 0..<options.roomsPerSide {
                let x0 = Double(index) * options.roomWidth
                let x1 = x0 + options.roomWidth
                for (side, y0, y1) in [("S", 0.0, options.roomDepth), ("N", north, north + options.roomDepth)] {
                    let polygon = Polygon([
                        Point2D(x: x0, y: y0), Point2D(x: x1, y: y0), Point2D(x: x1, y: y1), Point2D(x: x0, y: y1),
                    ])
                    let name = "Room \(side)\(index + 1)" + (floors.count > 1 ? " (floor \(level))" : "")
                    zones.append(
                        Zone(
                            id: "room-\(level)-\(side.lowercased())\(index + 1)", name: name,
                            fences: [.polygon(polygon, floor: floors.count > 1 ? level : nil)], checkOutTime: 3,
                            lostTimeout: 30))
                }
            }
        }
        return zones
    }
}
