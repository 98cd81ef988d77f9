import Foundation

/// A beacon that checks devices in to a zone when they come within its check-in proximity.
///
/// The beacon is named by a node id of the venue, by a beacon identity condition (wildcards allowed:
/// `UUID`, `UUID/major`, `UUID/major/minor`), or both (either one matching is enough).
/// In a venue JSON: `{"beacon": "UUID/1/42", "checkIn": "near"}` or `{"node": "b3", "checkIn": "immediate"}`;
/// `checkIn` defaults to `near`.
public struct ZoneBeacon: Hashable, Sendable {
    /// The node id, as sightings and `nodes` name it.
    public var node: String?
    /// The advertised identity, with wildcards.
    public var beacon: BeaconCondition?
    /// A device checks in once it is at this proximity or nearer (``Proximity/unknown`` never checks in).
    public var checkIn: Proximity

    public init(node: String? = nil, beacon: BeaconCondition? = nil, checkIn: Proximity = .near) {
        self.node = node
        self.beacon = beacon
        self.checkIn = checkIn
    }

    /// Whether a radio known by node id `node` and/or identity `beacon` is this zone beacon.
    public func matches(node nodeID: String?, beacon identity: BeaconID?) -> Bool {
        if let node, let nodeID, node == nodeID { return true }
        if let beacon, let identity, beacon.matches(identity) { return true }
        return false
    }

    /// Whether a beacon at `proximity` is close enough to check in.
    package func admits(_ proximity: Proximity) -> Bool {
        proximity != .unknown && proximity <= checkIn
    }
}

extension ZoneBeacon: Codable {
    enum CodingKeys: String, CodingKey {
        case node, beacon, checkIn
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let node = try container.decodeIfPresent(String.self, forKey: .node)
        let beacon = try container.decodeIfPresent(BeaconCondition.self, forKey: .beacon)
        guard node != nil || beacon != nil else {
            throw DecodingError.keyNotFound(
                CodingKeys.beacon,
                DecodingError.Context(
                    codingPath: container.codingPath, debugDescription: "a zone beacon needs 'beacon' or 'node'"))
        }
        let checkIn = try container.decodeIfPresent(Proximity.self, forKey: .checkIn) ?? .near
        guard checkIn != .unknown else {
            throw DecodingError.dataCorruptedError(
                forKey: .checkIn, in: container, debugDescription: "checkIn must be immediate, near or far")
        }
        self.init(node: node, beacon: beacon, checkIn: checkIn)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(node, forKey: .node)
        try container.encodeIfPresent(beacon, forKey: .beacon)
        try container.encode(checkIn, forKey: .checkIn)
    }
}
