import IndoorModel

/// Counts the test sightings that name a node `nodes.csv` lacks, one sighting at a time, for the note of
/// `indoor evaluate` (a mismatch of ids scores as misses).
struct UnknownNodeCount {
    private let ids: Set<String>
    private let beacons: Set<BeaconID>
    /// Sightings counted.
    private(set) var sightings = 0
    /// Those naming an unknown node.
    private(set) var unknown = 0
    /// The first unknown node's text.
    private(set) var first: String?

    /// A count against `nodes` (by id, or by beacon identity).
    init(nodes: [Node]) {
        ids = Set(nodes.map(\.id))
        beacons = Set(nodes.compactMap(\.beacon))
    }

    /// Counts one sighting.
    mutating func count(_ sighting: Sighting) {
        sightings += 1
        switch sighting.source {
        case .node(let id) where ids.contains(id): return
        case .beacon(let beacon) where beacons.contains(beacon) || ids.contains(beacon.text): return
        default:
            unknown += 1
            first = first ?? sighting.source.text
        }
    }

    /// The note, `nil` when every sighting counted names a known node.
    ///
    /// - Parameter wholeFile: Whether every sighting of the file was counted; when not (`--limit`), the note says
    ///   the count is of the first sightings.
    func note(wholeFile: Bool = true) -> String? {
        guard unknown > 0, let first else { return nil }
        let counted = wholeFile ? "\(sightings)" : "the first \(sightings)"
        return "\(unknown) of \(counted) sightings in test/sightings.csv name a node that "
            + "nodes.csv lacks (first: '\(first)'); they are ignored"
    }
}
