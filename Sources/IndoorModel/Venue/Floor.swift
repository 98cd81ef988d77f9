import Foundation

/// One level of a venue: its outline and walls in the local frame (metres).
public struct Floor: Hashable, Sendable, Codable {
    /// The level number: 0 = ground, negative below ground.
    public var level: Int
    /// A display name, e.g. `Ground floor`.
    public var name: String
    /// The floor's outer boundary.
    public var outline: Polygon
    /// Walls, for maps and for radio attenuation in the simulator.
    public var walls: [Segment]
    /// Height of this floor's floor level above the ground floor's, in metres.
    public var elevation: Double

    /// Metres between levels when a floor gives no elevation (3.5).
    static let defaultLevelHeight = 3.5

    /// A floor; `elevation` in metres defaults to ``defaultLevelHeight`` per level.
    public init(level: Int, name: String, outline: Polygon, walls: [Segment] = [], elevation: Double? = nil) {
        self.level = level
        self.name = name
        self.outline = outline
        self.walls = walls
        self.elevation = elevation ?? Double(level) * Self.defaultLevelHeight
    }

    enum CodingKeys: String, CodingKey {
        case level, name, outline, walls, elevation
    }

    /// Reads a floor of a venue JSON: `level` an integer; `elevation` finite metres within
    /// ``LocalFrame/limitMeters``; `outline` and `walls` points as ``Point2D`` reads them. A floor without an
    /// `elevation` whose default (3.5 m per level) would be beyond ``LocalFrame/limitMeters`` (a level beyond
    /// ±28571) is refused: the floor as written, with that elevation, could not be read back.
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
        self.init(
            level: level,
            name: try container.decodeIfPresent(String.self, forKey: .name) ?? "Level \(level)",
            outline: try container.decodeIfPresent(Polygon.self, forKey: .outline) ?? Polygon([]),
            walls: try container.decodeIfPresent([Segment].self, forKey: .walls) ?? [],
            elevation: elevation)
    }
}
