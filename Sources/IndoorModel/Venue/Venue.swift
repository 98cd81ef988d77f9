import Foundation

/// A building or site: its floors, fixed radios, zones and where it sits on the Earth.
public struct Venue: Hashable, Sendable, Identifiable {
    /// A stable id, e.g. `hq`.
    public var id: String
    /// A display name.
    public var name: String
    /// The floors, outlines and walls in metres in the local frame.
    public var floors: [Floor]
    /// The fixed radios, positions in metres in the local frame.
    public var nodes: [Node]
    /// Zones for check-in, check-out and dwell (filled in by geofencing).
    public var zones: [Zone]
    /// Places the local frame on WGS84; `nil` when the venue has no known location.
    public var anchor: GeoAnchor?
    /// The ids of the geofences (of a location SDK) this venue serves: a building, or a part of it. An indoor scan
    /// of one of these ids runs over this venue. Empty (the default) for a venue that serves none.
    public var geofences: [String]
    /// Where people move between floors (stairs, lifts), footprints in metres in the local frame. Empty (the
    /// default) when the venue lists none: positioning then lets a device change floor anywhere.
    public var connections: [FloorConnection]
    /// The IANA time zone the venue keeps its clocks in (`Europe/Berlin`), for reports by hour, day and week; `nil`
    /// (the default) for UTC.
    public var timeZone: String?
    /// The persons whose devices the venue counts and follows as one (``Person``). Empty (the default) when the
    /// venue enrols none: every device then counts as itself.
    public var persons: [Person]

    /// A venue; floors, nodes, zones and floor connections in the local frame (metres).
    public init(
        id: String, name: String, floors: [Floor] = [], nodes: [Node] = [], zones: [Zone] = [],
        anchor: GeoAnchor? = nil, geofences: [String] = [], connections: [FloorConnection] = [],
        timeZone: String? = nil, persons: [Person] = []
    ) {
        self.id = id
        self.name = name
        self.floors = floors
        self.nodes = nodes
        self.zones = zones
        self.anchor = anchor
        self.geofences = geofences
        self.connections = connections
        self.timeZone = timeZone
        self.persons = persons
    }

    /// The floor with `level`, if the venue has it.
    public func floor(level: Int) -> Floor? {
        floors.first { $0.level == level }
    }
}

extension Venue: Codable {
    enum CodingKeys: String, CodingKey {
        case id, name, floors, nodes, zones, anchor, geofences, connections, timeZone, persons
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            name: try container.decodeIfPresent(String.self, forKey: .name) ?? "",
            floors: try container.decodeIfPresent([Floor].self, forKey: .floors) ?? [],
            nodes: try container.decodeIfPresent([Node].self, forKey: .nodes) ?? [],
            zones: try container.decodeIfPresent([Zone].self, forKey: .zones) ?? [],
            anchor: try container.decodeIfPresent(GeoAnchor.self, forKey: .anchor),
            geofences: try container.decodeIfPresent([String].self, forKey: .geofences) ?? [],
            connections: try container.decodeIfPresent([FloorConnection].self, forKey: .connections) ?? [],
            timeZone: try container.decodeIfPresent(String.self, forKey: .timeZone),
            persons: try container.decodeIfPresent([Person].self, forKey: .persons) ?? [])
        if let timeZone, TimeZone(identifier: timeZone) == nil || timeZone.isEmpty {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [CodingKeys.timeZone],
                    debugDescription: "'\(timeZone)' is not an IANA time zone name (such as Europe/Berlin or UTC)"))
        }
        var fences = Set<String>()
        for (index, geofence) in geofences.enumerated() {
            guard !geofence.isEmpty else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: [CodingKeys.geofences, IndexKey(index)],
                        debugDescription: "a geofence id must not be empty"))
            }
            guard fences.insert(geofence).inserted else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: [CodingKeys.geofences, IndexKey(index)],
                        debugDescription: "geofence id '\(geofence)' is listed twice"))
            }
        }
        var levels = Set<Int>()
        for (index, floor) in floors.enumerated() where !levels.insert(floor.level).inserted {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [CodingKeys.floors, IndexKey(index)],
                    debugDescription: "floor level \(floor.level) is used twice"))
        }
        var seen = Set<String>()
        for (index, node) in nodes.enumerated() where !seen.insert(node.id).inserted {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [CodingKeys.nodes, IndexKey(index)],
                    debugDescription: "node id '\(node.id)' is used twice"))
        }
        // Events name a zone by its id, so two zones may not share one.
        var firstZone: [String: Int] = [:]
        for (index, zone) in zones.enumerated() {
            if let first = firstZone[zone.id] {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: [CodingKeys.zones, IndexKey(index), Zone.CodingKeys.id],
                        debugDescription:
                            "zone id '\(zone.id)' is already used by zones[\(first)]; zone ids must be unique"))
            }
            firstZone[zone.id] = index
        }
        try checkConnections()
        try checkPersons()
    }

    /// Connection ids are unique, and a venue that lists floors lists every level its connections join.
    private func checkConnections() throws {
        var firstConnection: [String: Int] = [:]
        let levels = Set(floors.map(\.level))
        for (index, connection) in connections.enumerated() {
            if let first = firstConnection[connection.id] {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: [CodingKeys.connections, IndexKey(index), FloorConnection.CodingKeys.id],
                        debugDescription:
                            "connection id '\(connection.id)' is already used by connections[\(first)]"))
            }
            firstConnection[connection.id] = index
            guard !floors.isEmpty else { continue }
            for (position, level) in connection.levels.enumerated() where !levels.contains(level) {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: [
                            CodingKeys.connections, IndexKey(index), FloorConnection.CodingKeys.levels,
                            IndexKey(position),
                        ],
                        debugDescription: "level \(level) is not one of the venue's floors"))
            }
        }
    }

    /// Writes the venue; `geofences`, `connections` and `persons` only when it has some, and `timeZone` only when it
    /// is set, so venues without them keep their bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(floors, forKey: .floors)
        try container.encode(nodes, forKey: .nodes)
        try container.encode(zones, forKey: .zones)
        try container.encodeIfPresent(anchor, forKey: .anchor)
        if !geofences.isEmpty { try container.encode(geofences, forKey: .geofences) }
        if !connections.isEmpty { try container.encode(connections, forKey: .connections) }
        try container.encodeIfPresent(timeZone, forKey: .timeZone)
        if !persons.isEmpty { try container.encode(persons, forKey: .persons) }
    }

    /// Reads a venue from its JSON document, refusing values no venue can have.
    ///
    /// Besides the JSON shape, the venue must have unique floor levels, node ids, zone ids and connection ids
    /// (connections joining only levels of its floors, when it lists floors); finite
    /// coordinates (nodes, outlines, walls, fences, geolines, elevations) within ``LocalFrame/limitMeters``
    /// (100 km) of the local origin; integer floors; an anchor with latitude in −90…90, longitude in
    /// −180…180 and a bearing in ``GeoAnchor/bearingRange`` (degrees). docs/FORMATS.md lists the rules.
    ///
    /// - Parameters:
    ///   - data: The UTF-8 JSON bytes.
    ///   - file: The file name to put in error messages.
    /// - Throws: ``FormatError`` naming the file and the field path, for example
    ///   `venue.json: nodes[2].x: expected a number`.
    public static func decodeJSON(_ data: Data, file: String = "venue.json") throws -> Venue {
        try JSONFormat.decode(Venue.self, from: data, file: file)
    }

    /// The venue as pretty-printed JSON with sorted keys (stable output).
    public func encodeJSON() throws -> Data {
        try JSONFormat.encoder(pretty: true).encode(self)
    }
}

/// A coding key for an array index, used in error paths.
struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ index: Int) {
        self.intValue = index
        self.stringValue = "Index \(index)"
    }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.init(intValue) }
}
