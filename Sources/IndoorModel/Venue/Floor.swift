import Foundation

/// One level of a venue: its outline and walls in the local frame (metres).
///
/// A floor's area is its ``outline``, plus its ``otherOutlines`` for a floor drawn as several polygons (two wings, a
/// building on each side of a street), minus its ``holes`` (a courtyard, an atrium): ``contains(_:)`` says whether a
/// point lies on the floor.
public struct Floor: Hashable, Sendable, Codable {
    /// The level number: 0 = ground, negative below ground.
    public var level: Int
    /// A display name, e.g. `Ground floor`.
    public var name: String
    /// The floor's outer boundary (for a floor of several polygons, the largest).
    public var outline: Polygon
    /// The floor's other polygons, for a floor drawn as several (each apart from the others); empty (the default)
    /// for a floor of one outline.
    public var otherOutlines: [Polygon]
    /// Areas inside the outlines that are not part of the floor (a courtyard, an atrium); empty by default.
    public var holes: [Polygon]
    /// Walls, for maps and for radio attenuation in the simulator.
    public var walls: [Segment]
    /// Height of this floor's floor level above the ground floor's, in metres.
    public var elevation: Double
    /// A short name, e.g. `G` or `1`, for lift buttons and maps; `nil` (the default) when the floor has none.
    public var shortName: String?
    /// What kind of level this is, e.g. IMDF's level category (`parking`, `unspecified`); `nil` (the default) when
    /// not said.
    public var category: String?
    /// The building the floor belongs to, by name, for a venue of several buildings; `nil` (the default) when not said.
    public var building: String?

    /// Metres between levels when a floor gives no elevation (3.5).
    static let defaultLevelHeight = 3.5

    /// A floor; `elevation` in metres defaults to ``defaultLevelHeight`` per level.
    public init(
        level: Int, name: String, outline: Polygon, walls: [Segment] = [], elevation: Double? = nil,
        otherOutlines: [Polygon] = [], holes: [Polygon] = [], shortName: String? = nil, category: String? = nil,
        building: String? = nil
    ) {
        self.level = level
        self.name = name
        self.outline = outline
        self.otherOutlines = otherOutlines
        self.holes = holes
        self.walls = walls
        self.elevation = elevation ?? Double(level) * Self.defaultLevelHeight
        self.shortName = shortName
        self.category = category
        self.building = building
    }

    /// Whether the floor has an outline (one of at least 3 vertices); a floor without one takes every point.
    public var hasOutline: Bool {
        outline.vertices.count >= 3
    }

    /// Every polygon of the floor's area: ``outline`` and ``otherOutlines``, those of at least 3 vertices.
    public var outlines: [Polygon] {
        ([outline] + otherOutlines).filter { $0.vertices.count >= 3 }
    }

    /// Whether `point` (metres, local frame) lies on the floor: inside one of its outlines and not strictly inside one
    /// of its holes (a point on an edge counts as on the floor). `true` for a floor without an outline.
    public func contains(_ point: Point2D) -> Bool {
        guard hasOutline else { return true }
        guard outlines.contains(where: { $0.contains(point) }) else { return false }
        return !holes.contains { $0.contains(point) && $0.distanceToBoundary(from: point) > 1e-9 }
    }

    /// The distance in metres from `point` to the nearest edge of the floor's area (outlines and holes alike);
    /// infinity for a floor without an outline.
    public func distanceToBoundary(from point: Point2D) -> Double {
        guard hasOutline else { return .infinity }
        return (outlines + holes).map { $0.distanceToBoundary(from: point) }.min() ?? .infinity
    }

    enum CodingKeys: String, CodingKey {
        case level, name, outline, otherOutlines, holes, walls, elevation, shortName, category, building
    }

    /// Reads a floor of a venue JSON: `level` an integer; `elevation` finite metres within
    /// ``LocalFrame/limitMeters``; `outline`, `otherOutlines`, `holes` and `walls` points as ``Point2D`` reads them
    /// (each polygon of `otherOutlines` and `holes` at least 3 vertices). A floor without an `elevation` whose default
    /// (3.5 m per level) would be beyond ``LocalFrame/limitMeters`` (a level beyond ±28571) is refused: the floor as
    /// written, with that elevation, could not be read back.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let level = try container.decodeInteger(forKey: .level)
        let elevation = try container.decodeCoordinateIfPresent(forKey: .elevation, name: "elevation")
        let defaultElevation = Double(level) * Self.defaultLevelHeight
        if elevation == nil, let problem = LocalFrame.problem(meters: defaultElevation) {
            throw DecodingError.dataCorruptedError(
                forKey: .level, in: container,
                debugDescription:
                    "level \(level) needs an 'elevation': its default, \(DatasetCSV.number(defaultElevation)) m, \(problem)"
            )
        }
        func polygons(_ key: CodingKeys) throws -> [Polygon] {
            let polygons = try container.decodeIfPresent([Polygon].self, forKey: key) ?? []
            for (index, polygon) in polygons.enumerated() where polygon.vertices.count < 3 {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: container.codingPath + [key, IndexKey(index)],
                        debugDescription: "a polygon needs at least 3 vertices, found \(polygon.vertices.count)"))
            }
            return polygons
        }
        self.init(
            level: level,
            name: try container.decodeIfPresent(String.self, forKey: .name) ?? "Level \(level)",
            outline: try container.decodeIfPresent(Polygon.self, forKey: .outline) ?? Polygon([]),
            walls: try container.decodeIfPresent([Segment].self, forKey: .walls) ?? [],
            elevation: elevation,
            otherOutlines: try polygons(.otherOutlines),
            holes: try polygons(.holes),
            shortName: try container.decodeIfPresent(String.self, forKey: .shortName),
            category: try container.decodeIfPresent(String.self, forKey: .category),
            building: try container.decodeIfPresent(String.self, forKey: .building))
    }

    /// Writes the floor; `otherOutlines`, `holes`, `shortName`, `category` and `building` only when it has them, so
    /// that floors without them keep their bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(level, forKey: .level)
        try container.encode(name, forKey: .name)
        try container.encode(outline, forKey: .outline)
        if !otherOutlines.isEmpty { try container.encode(otherOutlines, forKey: .otherOutlines) }
        if !holes.isEmpty { try container.encode(holes, forKey: .holes) }
        try container.encode(walls, forKey: .walls)
        try container.encode(elevation, forKey: .elevation)
        try container.encodeIfPresent(shortName, forKey: .shortName)
        try container.encodeIfPresent(category, forKey: .category)
        try container.encodeIfPresent(building, forKey: .building)
    }
}
