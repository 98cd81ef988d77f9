import IndoorModel

/// One JSON object per event, with `event` naming the case and `t` its time in seconds (keys sorted by
/// ``IndoorModel/JSONFormat``; conditions and beacons in their text form `UUID[/major[/minor]]`):
///
/// - `{"event":"didStartObserving","t":0,"conditions":["E2C5…/1"]}`
/// - `{"event":"didStopObserving","t":30,"reason":"requested","conditions":[…],"beacons":["E2C5…/1/7"]}`
/// - `{"event":"didEnterArea","t":1,"condition":"E2C5…/1","beacon":"E2C5…/1/7"}`
/// - `{"event":"didFindBeacon","t":1,"condition":"E2C5…/1","beacon":"E2C5…/1/7","device":"me","rssi":-59,
///   "distance":1,"proximity":"immediate"}` (a non-finite RSSI or distance is `null`)
/// - `{"event":"didLeaveArea","t":22,"condition":"E2C5…/1","beacon":"E2C5…/1/7","lastHeard":12}`
extension MonitorEvent: Encodable {
    /// The `event` value: the case name.
    public var name: String {
        switch self {
        case .didStartObserving: "didStartObserving"
        case .didStopObserving: "didStopObserving"
        case .didEnterArea: "didEnterArea"
        case .didFindBeacon: "didFindBeacon"
        case .didLeaveArea: "didLeaveArea"
        }
    }

    enum CodingKeys: String, CodingKey {
        case event, conditions, condition, beacon
        case time = "t"
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .didStartObserving(let conditions, _):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(conditions, forKey: .conditions)
        case .didStopObserving(let stop):
            try stop.encode(to: encoder)
        case .didEnterArea(let condition, let beacon, _):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(condition, forKey: .condition)
            try container.encode(beacon, forKey: .beacon)
        case .didFindBeacon(let found):
            try found.encode(to: encoder)
        case .didLeaveArea(let exit):
            try exit.encode(to: encoder)
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .event)
        try container.encode(time, forKey: .time)
    }
}

/// `{"t":30,"reason":"requested","conditions":[…],"beacons":[…]}`.
extension ObservationStop: Encodable {
    enum CodingKeys: String, CodingKey {
        case reason, conditions, beacons
        case time = "t"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reason, forKey: .reason)
        try container.encode(conditions, forKey: .conditions)
        try container.encode(beacons, forKey: .beacons)
        try container.encode(time, forKey: .time)
    }
}

/// `{"t":1,"condition":"…","beacon":"…","device":"me","rssi":-59,"distance":1,"proximity":"immediate"}`:
/// the ranging's fields, with the beacon named by ``beacon``.
extension FoundBeacon: Encodable {
    enum CodingKeys: String, CodingKey {
        case condition, beacon, device, rssi, distance, proximity
        case time = "t"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(condition, forKey: .condition)
        try container.encode(beacon, forKey: .beacon)
        try container.encode(ranging.device, forKey: .device)
        try container.encodeFinite(ranging.rssi, forKey: .rssi)
        try container.encodeFinite(ranging.distance, forKey: .distance)
        try container.encode(ranging.proximity, forKey: .proximity)
        try container.encode(ranging.time, forKey: .time)
    }
}

/// `{"t":22,"condition":"…","beacon":"…","lastHeard":12}`.
extension AreaExit: Encodable {
    enum CodingKeys: String, CodingKey {
        case condition, beacon, lastHeard
        case time = "t"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(condition, forKey: .condition)
        try container.encode(beacon, forKey: .beacon)
        try container.encode(lastHeard, forKey: .lastHeard)
        try container.encode(time, forKey: .time)
    }
}
