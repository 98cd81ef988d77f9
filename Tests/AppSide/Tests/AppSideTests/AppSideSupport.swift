import Foundation
import IndoorModel

/// What the app-side tests share: a small venue as an app ships it, and its beacons.
enum AppSide {
    /// The app's beacon UUID (the venue's beacons and the peers' phones advertise it).
    static let uuidText = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    static let uuid = UUID(uuidString: uuidText) ?? UUID()

    /// The beacon `1/minor` of the app's UUID.
    static func beacon(_ minor: UInt16, major: UInt16 = 1) -> BeaconID {
        BeaconID(uuid: uuid, major: major, minor: minor)
    }

    /// Two nodes 20 m apart (beacons 1/1 and 1/2) and a room around the second, with a geo anchor; the room's beacon
    /// checks a device in at `near`.
    static let venueJSON = Data(
        """
        {"id": "tiny", "name": "Tiny", "anchor": {"latitude": 52.5, "longitude": 13.4}, "geofences": ["tiny"],
         "nodes": [{"id": "n1", "beacon": "\(uuidText)/1/1", "x": 0, "y": 0},
                   {"id": "n2", "beacon": "\(uuidText)/1/2", "x": 20, "y": 0}],
         "zones": [{"id": "east", "name": "East room", "checkOutTime": 2,
                    "fences": [{"polygon": [[15, -5], [25, -5], [25, 5], [15, 5]]}]}]}
        """.utf8)

    /// The venue of ``venueJSON``.
    static func venue() throws -> Venue { try Venue.decodeJSON(venueJSON) }

    /// Device `p` walking from node n1 to n2 (the room) and back: node-id sightings, as a gateway sends them.
    static let walk = [
        Sighting(time: 0, device: "p", node: "n1", rssi: -59), Sighting(time: 1, device: "p", node: "n1", rssi: -60),
        Sighting(time: 10, device: "p", node: "n2", rssi: -59), Sighting(time: 11, device: "p", node: "n2", rssi: -58),
        Sighting(time: 20, device: "p", node: "n1", rssi: -59), Sighting(time: 22, device: "p", node: "n1", rssi: -59),
    ]

    /// `sightings` as an `AsyncStream`, as an app's radio hands them out.
    static func stream(_ sightings: [Sighting]) -> AsyncStream<Sighting> {
        AsyncStream { feed in
            for sighting in sightings { feed.yield(sighting) }
            feed.finish()
        }
    }
}
