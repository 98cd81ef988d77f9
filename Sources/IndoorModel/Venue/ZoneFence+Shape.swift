/// The coding keys of a value whose outline is a ``ZoneFence/Shape``: a `polygon`, or a `center` and a `radius`.
protocol ShapeCodingKey: CodingKey {
    static var center: Self { get }
    static var radius: Self { get }
    static var polygon: Self { get }
}

extension ZoneFence.Shape {
    /// Reads an outline: `polygon` (a simple polygon, see ``ZoneFence/problem(with:)``) or `center` and `radius`
    /// (> 0 metres), not both. Errors name the field's path and call the owner `noun` (`fence`, `connection`).
    static func decode<Key: ShapeCodingKey>(from container: KeyedDecodingContainer<Key>, noun: String) throws -> Self {
        let polygon = try container.decodeIfPresent(Polygon.self, forKey: .polygon)
        let center = try container.decodeIfPresent(Point2D.self, forKey: .center)
        switch (polygon, center) {
        case (let polygon?, nil):
            if let problem = ZoneFence.problem(with: polygon) {
                throw DecodingError.dataCorruptedError(
                    forKey: .polygon, in: container,
                    debugDescription: noun == "fence"
                        ? problem : problem.replacingOccurrences(of: "polygon fence", with: "\(noun) polygon"))
            }
            return .polygon(polygon)
        case (nil, let center?):
            let radius = try container.decodeCoordinate(forKey: .radius, name: "radius")
            guard radius > 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .radius, in: container, debugDescription: "radius must be a positive number of metres")
            }
            return .circle(center: center, radius: radius)
        case (.some, .some):
            throw DecodingError.dataCorruptedError(
                forKey: .polygon, in: container,
                debugDescription: "a \(noun) is either a circle (center, radius) or a polygon, not both")
        case (nil, nil):
            throw DecodingError.keyNotFound(
                Key.polygon,
                DecodingError.Context(
                    codingPath: container.codingPath,
                    debugDescription: "a \(noun) needs 'polygon' or 'center' and 'radius'"))
        }
    }

    /// Writes the outline: `center` and `radius`, or `polygon`.
    func encode<Key: ShapeCodingKey>(into container: inout KeyedEncodingContainer<Key>) throws {
        switch self {
        case .circle(let center, let radius):
            try container.encode(center, forKey: .center)
            try container.encode(radius, forKey: .radius)
        case .polygon(let polygon):
            try container.encode(polygon, forKey: .polygon)
        }
    }
}
