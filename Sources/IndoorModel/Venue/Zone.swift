import Foundation

/// A named place that devices check in to and out of.
///
/// A zone groups fences (circles or polygons on a floor), beacons (each with a check-in proximity) and
/// geolines (polylines a track can cross), with the rules the geofencing layer applies to them.
/// Every field but `id` and `name` has a default, so `{"id": "lobby", "name": "Lobby"}` is a valid zone.
/// docs/GEOFENCING.md documents the JSON with a complete example.
public struct Zone: Hashable, Sendable, Codable, Identifiable {
    /// Unique among the venue's zones; events name the zone by it.
    public var id: String
    /// For people; defaults to `id` in JSON.
    public var name: String
    /// Areas that check a device in when one of its fixes falls inside.
    public var fences: [ZoneFence]
    /// Beacons that check a device in when it comes within their check-in proximity.
    public var beacons: [ZoneBeacon]
    /// Lines that check a device in when its track crosses them; they never check out.
    public var geolines: [ZoneGeoline]
    /// Whether devices check out of this zone (fences and beacons); `true` by default.
    public var checkOutEnabled: Bool
    /// How far beyond a fence, in metres, on top of the fix's accuracy radius, a fix must be to count as
    /// confidently outside. Default 1 m.
    public var checkOutMargin: Double
    /// How long, in seconds, a device must stay confidently outside every fence before it checks out. Default 5 s.
    public var checkOutTime: Double
    /// How long, in seconds, none of the zone's beacons may be heard (at any range) before a device checks out.
    /// Default 10 s; JSON requires more than 0 (with 0, a visit would check out between any two packets).
    public var exitDelay: Double
    /// How long, in seconds, a device inside a fence may go without any fix at all before it is taken as lost
    /// and checks out of the fence (reason `lost`). Default 60 s; `nil` or 0 disables the rule, so a visit
    /// whose fixes stop inside stays open. Beacon presence keeps its own ``exitDelay`` rule.
    public var lostTimeout: Double?
    /// When a visit lasts this many seconds, a dwell event fires (once per visit); `nil` for no dwell events.
    /// Only zones with check-out have visits with a length: without check-out no dwell event fires.
    public var dwellThreshold: Double?
    /// Minimum seconds between a device's check-ins to this zone: counted from the check-out when check-out
    /// is enabled, otherwise from the check-in. Default 0.
    public var retriggerTime: Double
    /// Custom key/value pairs delivered with every event of this zone.
    public var data: [String: String]
    /// A disabled zone checks no one in; a visit already open still checks out. `true` by default.
    public var isEnabled: Bool

    /// A zone; `checkOutMargin` in metres, every time in seconds (see the properties).
    public init(
        id: String, name: String, fences: [ZoneFence] = [], beacons: [ZoneBeacon] = [],
        geolines: [ZoneGeoline] = [], checkOutEnabled: Bool = true, checkOutMargin meters: Double = 1,
        checkOutTime seconds: Double = 5, exitDelay: Double = 10, lostTimeout: Double? = 60,
        dwellThreshold: Double? = nil, retriggerTime: Double = 0, data: [String: String] = [:],
        isEnabled: Bool = true
    ) {
        self.id = id
        self.name = name
        self.fences = fences
        self.beacons = beacons
        self.geolines = geolines
        self.checkOutEnabled = checkOutEnabled
        self.checkOutMargin = meters
        self.checkOutTime = seconds
        self.exitDelay = exitDelay
        self.lostTimeout = lostTimeout
        self.dwellThreshold = dwellThreshold
        self.retriggerTime = retriggerTime
        self.data = data
        self.isEnabled = isEnabled
    }

    enum CodingKeys: String, CodingKey {
        case id, name, fences, beacons, geolines
        case checkOutEnabled = "checkOut"
        case checkOutMargin, checkOutTime, exitDelay, lostTimeout, dwellThreshold, retriggerTime, data
        case isEnabled = "enabled"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func nonNegative(_ key: CodingKeys, default value: Double) throws -> Double {
            let number = try container.decodeNumberIfPresent(forKey: key, name: key.stringValue) ?? value
            guard number.isFinite, number >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "must be a number ≥ 0")
            }
            return number
        }
        let exitDelay = try nonNegative(.exitDelay, default: 10)
        guard exitDelay > 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .exitDelay, in: container,
                debugDescription:
                    "must be a number of seconds > 0 (with 0, a beacon visit would check out between any two packets)")
        }
        let id = try container.decode(String.self, forKey: .id)
        guard !id.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "zone id is empty")
        }
        let dwell = try container.decodeNumberIfPresent(forKey: .dwellThreshold, name: "dwellThreshold")
        if let dwell, !(dwell.isFinite && dwell >= 0) {
            throw DecodingError.dataCorruptedError(
                forKey: .dwellThreshold, in: container, debugDescription: "must be a number ≥ 0")
        }
        // Absent: the default; `null` (or 0): the rule is off.
        let lost: Double? =
            container.contains(.lostTimeout)
            ? try container.decodeNumberIfPresent(forKey: .lostTimeout, name: "lostTimeout") : 60
        if let lost, !(lost.isFinite && lost >= 0) {
            throw DecodingError.dataCorruptedError(
                forKey: .lostTimeout, in: container, debugDescription: "must be a number ≥ 0, or null to disable")
        }
        let fences = try container.decodeIfPresent([ZoneFence].self, forKey: .fences) ?? []
        for (index, fence) in fences.enumerated() {
            // A circle's centre is checked as a point; its radius must stay within the local frame too.
            if case .circle(_, let radius) = fence.shape, let problem = LocalFrame.problem(meters: radius) {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: container.codingPath + [
                            CodingKeys.fences, IndexKey(index), ZoneFence.CodingKeys.radius,
                        ],
                        debugDescription: "radius '\(DatasetCSV.number(radius))' \(problem)"))
            }
        }
        self.init(
            id: id,
            name: try container.decodeIfPresent(String.self, forKey: .name) ?? id,
            fences: fences,
            beacons: try container.decodeIfPresent([ZoneBeacon].self, forKey: .beacons) ?? [],
            geolines: try container.decodeIfPresent([ZoneGeoline].self, forKey: .geolines) ?? [],
            checkOutEnabled: try container.decodeIfPresent(Bool.self, forKey: .checkOutEnabled) ?? true,
            checkOutMargin: try nonNegative(.checkOutMargin, default: 1),
            checkOutTime: try nonNegative(.checkOutTime, default: 5),
            exitDelay: exitDelay,
            lostTimeout: lost,
            dwellThreshold: dwell,
            retriggerTime: try nonNegative(.retriggerTime, default: 0),
            data: try container.decodeIfPresent([String: String].self, forKey: .data) ?? [:],
            isEnabled: try container.decodeIfPresent(Bool.self, forKey: .isEnabled) ?? true)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(fences, forKey: .fences)
        try container.encode(beacons, forKey: .beacons)
        try container.encode(geolines, forKey: .geolines)
        try container.encode(checkOutEnabled, forKey: .checkOutEnabled)
        try container.encode(checkOutMargin, forKey: .checkOutMargin)
        try container.encode(checkOutTime, forKey: .checkOutTime)
        try container.encode(exitDelay, forKey: .exitDelay)
        if let lostTimeout {
            try container.encode(lostTimeout, forKey: .lostTimeout)
        } else {
            try container.encodeNil(forKey: .lostTimeout)
        }
        try container.encodeIfPresent(dwellThreshold, forKey: .dwellThreshold)
        try container.encode(retriggerTime, forKey: .retriggerTime)
        try container.encode(data, forKey: .data)
        try container.encode(isEnabled, forKey: .isEnabled)
    }
}
