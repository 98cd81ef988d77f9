import IndoorModel

/// In JSON (keys sorted by ``IndoorModel/JSONFormat``): `{"t":12,"device":"phone-1","beacon":"UUID/1/2"`
/// (or `"node":"n1"`)`,"rssi":-67.5,"distance":2.4,"proximity":"near"}`: seconds, dBm, metres. A distance
/// or RSSI that is not finite (unknown) is `null`.
extension RangedBeacon: Encodable {
    enum CodingKeys: String, CodingKey {
        case time = "t"
        case device, node, beacon, rssi, distance, proximity
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(time, forKey: .time)
        try container.encode(device, forKey: .device)
        try container.encode(source, nodeKey: .node, beaconKey: .beacon)
        try container.encodeFinite(rssi, forKey: .rssi)
        try container.encodeFinite(distance, forKey: .distance)
        try container.encode(proximity, forKey: .proximity)
    }
}

extension KeyedEncodingContainer {
    /// Encodes `value`, or `null` when it is not finite (JSON has no infinities or NaN).
    mutating func encodeFinite(_ value: Double, forKey key: Key) throws {
        if value.isFinite {
            try encode(value, forKey: key)
        } else {
            try encodeNil(forKey: key)
        }
    }
}
