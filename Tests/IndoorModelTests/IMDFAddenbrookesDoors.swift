import Foundation
import IndoorModel

/// The two doors of a hospital's IMDF archive made with Apple's IMDF Sandbox (Addenbrooke's, Cambridge:
/// racketmaestro/Geojson-to-IMDF-Transformer `Addenbrookes_Final_IMDF/`, no licence, so not vendored) that an import
/// once left closed (docs/notes/2026-11-29-third-party-imdf-archives.md), rebuilt: each door and the unit edges beside
/// it at the archive's exact WGS84 positions, the units closed by vertices of our own on their far side.
///
/// - Door `f2045ff0-…` (1.46 m) is an edge of 'Stairs' and lies 2.1° off the corridor's edge beside it, its ends 0 and
///   5.4 cm from that edge; the lift's edge starts at its end, 8.3 cm off its line at the other end.
/// - Door `6a86b91e-…` (1.06 m) lies between the corridor and 'Clinical Engineering', 2.4° off both edges, its ends 0
///   and 4.4 cm from one, 4.5 cm and 0 from the other.
enum IMDFAddenbrookesDoors {
    static let stairsDoor = "f2045ff0-8f17-433d-b87b-55ec52d5bbff"
    static let engineeringDoor = "6a86b91e-1b83-4812-83e6-727af7ce1e41"
    static let level = "65a3cf8b-179e-4da7-9301-bb4747c7db2d"
    /// The archive's venue display point, longitude and latitude.
    static let displayPoint = [0.1401431, 52.1753029]

    /// The doors, `[longitude, latitude]` positions.
    static let doors: [(id: String, line: [[Double]])] = [
        (stairsDoor, [[0.1427427, 52.1754975], [0.1427621, 52.1755029]]),
        (engineeringDoor, [[0.1427545, 52.1751872], [0.1427401, 52.1751836]]),
    ]

    /// The units: name and outer ring (not closed). The first vertices of each are the archive's, the rest ours.
    static let units: [(name: String, category: String, ring: [[Double]])] = [
        (
            "Stairs", "stairs",
            [[0.1427205, 52.1755305], [0.1427427, 52.1754975], [0.1427621, 52.1755029], [0.1427487, 52.175522]]
        ),
        (
            "Corridor by the stairs", "walkway",
            [
                [0.1427785, 52.1755065], [0.1427427, 52.1754975], [0.142671, 52.1754778],
                [0.142671, 52.17546], [0.1427785, 52.17549],
            ]
        ),
        (
            "Elevator", "elevator",
            [[0.1427487, 52.175522], [0.1427621, 52.1755029], [0.1428009, 52.1755121], [0.1427875, 52.1755312]]
        ),
        (
            "Corridor by Clinical Engineering", "walkway",
            [
                [0.1423117, 52.1750632], [0.1427545, 52.1751872], [0.1428526, 52.1752147],
                [0.1428526, 52.17524], [0.1423117, 52.17509],
            ]
        ),
        (
            "Clinical Engineering", "office",
            [
                [0.1428522, 52.1752151], [0.1427401, 52.1751836], [0.1423117, 52.1750632],
                [0.1423117, 52.17504], [0.1428522, 52.17519],
            ]
        ),
    ]

    /// Edges that stay walls beside the doors, `[longitude, latitude]` ends: the corridor's edge past the stairs door,
    /// the lift's edge that starts at it, and the two long edges past the other door.
    static let keptEdges: [[[Double]]] = [
        [[0.1427785, 52.1755065], [0.1427427, 52.1754975]],
        [[0.1427621, 52.1755029], [0.1428009, 52.1755121]],
        [[0.1423117, 52.1750632], [0.1427545, 52.1751872]],
        [[0.1428522, 52.1752151], [0.1427401, 52.1751836]],
    ]

    /// The archive's files by name.
    static func files() throws -> [String: Data] {
        typealias Archive = IMDFHandMadeArchive
        let level = [
            [0.14225, 52.175], [0.14285, 52.175], [0.14285, 52.17556], [0.14225, 52.17556], [0.14225, 52.175],
        ]
        let display = ["type": "Point", "coordinates": displayPoint] as [String: Any]
        return [
            "manifest.json": try JSONSerialization.data(
                withJSONObject: ["version": "1.0.0", "language": "en-US", "generated_by": "IMDF Sandbox 2020.09"]),
            "venue.geojson": try Archive.collection([
                Archive.feature(
                    "venue", id: "venue-1", geometry: ["type": "Polygon", "coordinates": [level]],
                    properties: ["name": Archive.labels("CPC4"), "category": "healthcare", "display_point": display])
            ]),
            "level.geojson": try Archive.collection([
                Archive.feature(
                    "level", id: Self.level, geometry: ["type": "Polygon", "coordinates": [level]],
                    properties: [
                        "ordinal": 0, "name": Archive.labels("Ground Floor"), "category": "unspecified",
                        "outdoor": false,
                    ])
            ]),
            "unit.geojson": try Archive.collection(
                units.map { unit in
                    Archive.feature(
                        "unit", id: Archive.uuid(unit.name),
                        geometry: ["type": "Polygon", "coordinates": [unit.ring + unit.ring.prefix(1)]],
                        properties: [
                            "category": unit.category, "name": Archive.labels(unit.name), "level_id": Self.level,
                        ])
                }),
            "opening.geojson": try Archive.collection(
                doors.map { door in
                    Archive.feature(
                        "opening", id: door.id, geometry: ["type": "LineString", "coordinates": door.line],
                        properties: ["category": "pedestrian", "level_id": Self.level])
                }),
        ]
    }
}
