import Foundation

/// Which fixed radio a sighting involves: a node named by id, or a beacon named by its identity.
public enum SightingSource: Hashable, Sendable {
    /// A node id from the venue or `nodes.csv`.
    case node(String)
    /// A beacon identity, resolved to a node by the node's ``Node/beacon``.
    case beacon(BeaconID)

    /// Reads a `node` field: the text form `UUID/major/minor` is a beacon, anything else a node id.
    init(field: some StringProtocol) {
        if field.utf8.contains(UInt8(ascii: "/")), let beacon = try? BeaconID(parsing: String(field)) {
            self = .beacon(beacon)
        } else {
            self = .node(String(field))
        }
    }

    /// The text written in a `node` field: the node id, or the beacon's `UUID/major/minor`.
    public var text: String {
        switch self {
        case .node(let id): id
        case .beacon(let beacon): beacon.text
        }
    }
}

extension KeyedEncodingContainer {
    /// Writes `source` the way every JSON format of the project does: a node as `node: id`, a beacon as
    /// `beacon: "UUID/major/minor"`.
    public mutating func encode(_ source: SightingSource, nodeKey: Key, beaconKey: Key) throws {
        switch source {
        case .node(let id): try encode(id, forKey: nodeKey)
        case .beacon(let beacon): try encode(beacon, forKey: beaconKey)
        }
    }
}
