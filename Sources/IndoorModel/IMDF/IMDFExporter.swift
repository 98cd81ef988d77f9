import Foundation

/// Writes a ``Venue`` as an IMDF archive's files (OGC 20-094), in WGS84 through the venue's ``GeoAnchor``: what
/// ``IMDFImporter`` reads back.
///
/// - Each floor becomes a level: `ordinal` the floor's level, its outline the level's polygon (with its other outlines,
///   a MultiPolygon; its holes, inner rings; a floor without an outline gets the bounding rectangle of its rooms, walls
///   and connections), `name` its name, `short_name` its short name (else its level number), `category` its category
///   (else `unspecified`), `building_ids` the buildings its `building` names (`; ` between names), each written as a
///   building feature.
/// - Each zone's polygon fence on a floor becomes a unit on that floor's level (its holes inner rings), named as the
///   zone, `category` from the zone's data (`room` without one); a circle fence becomes a polygon of ``circleSides``
///   sides. Zones whose data say `"imdf": "geofence"` become geofences on the levels of their fences instead.
/// - Each connection becomes a unit on every level it joins (`stairs`, `elevator`, `escalator` or `ramp`), but
///   where a zone's unit of that category already covers it on that level (a venue imported from IMDF keeps its
///   stairs units as zones): an import makes the same connection of those units again.
/// - Walls: IMDF draws walls as unit boundaries, so the pieces of a floor's unit boundaries that none of its walls
///   covers become openings; a floor without walls gets no openings (its boundaries read back as walls).
/// - The venue's display point is the anchor's origin.
///
/// What IMDF has no place for is said in ``IMDFExport/notes``: nodes, walls on no unit boundary, the anchor's
/// bearing (an import without an anchor places the venue north-up around the same point), zones without a polygon
/// on a floor.
///
/// Feature ids are UUIDs, as IMDF requires: a zone id that is a UUID is kept, any other id becomes a UUID made from
/// the venue's id and it (``featureID(_:_:venue:)``), the same on every export.
public enum IMDFExporter {
    /// The sides of the polygon a circle becomes.
    static let circleSides = 64

    /// The IMDF category of a unit made from each kind of connection.
    static let unitCategories: [FloorConnection.Kind: String] = [
        .stairs: "stairs", .lift: "elevator", .escalator: "escalator", .ramp: "ramp",
    ]

    /// Writes `venue` as IMDF.
    ///
    /// - Parameters:
    ///   - venue: The venue; it needs an anchor.
    ///   - created: When the archive is made, for the manifest's `created`.
    /// - Returns: The files and what IMDF does not hold.
    /// - Throws: ``IMDFExportError`` when the venue has no anchor (IMDF coordinates are longitude and latitude), or a
    ///   floor has neither an outline nor anything on it to outline.
    public static func files(of venue: Venue, created: Date) throws -> IMDFExport {
        guard let anchor = venue.anchor else {
            throw IMDFExportError(
                field: "anchor",
                message:
                    "venue '\(venue.id)' has no anchor: IMDF coordinates are WGS84 longitude and latitude; add "
                    + "\"anchor\": {\"latitude\": …, \"longitude\": …, \"bearingDegrees\": …} to the venue "
                    + "(docs/FORMATS.md) or set it in the map's editor")
        }
        var writing = Writing(venue: venue, anchor: anchor)
        return try writing.export(created: created)
    }

    /// The IMDF feature id of the venue's `kind` of thing (`unit`, `level`) named `name`: `name` itself when it is a
    /// UUID, else a UUID made from the venue id, `kind` and `name` (version 8, two FNV-1a 64-bit hashes), so that the
    /// same venue always exports the same ids.
    static func featureID(_ kind: String, _ name: String, venue: String) -> String {
        if let uuid = UUID(uuidString: name) { return uuid.uuidString.lowercased() }
        let text = Array("indoor:\(venue):\(kind):\(name)".utf8)
        func fnv(_ seed: UInt64) -> UInt64 {
            text.reduce(seed) { hash, byte in (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        var bytes = withUnsafeBytes(of: fnv(0xcbf2_9ce4_8422_2325).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: fnv(0x84222325_cbf29ce4).bigEndian, Array.init)
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }
}

extension IMDFExporter {
    /// One export under way: the venue, its frame, the features so far and the notes.
    struct Writing {
        let venue: Venue
        let anchor: GeoAnchor
        var notes: [String] = []
        var units: [IMDFJSON] = []
        /// Anchors, occupants and amenities from the zones' `occupants` and `amenities` data.
        var anchors: [IMDFJSON] = []
        var occupants: [IMDFJSON] = []
        var amenities: [IMDFJSON] = []
        var buildings: [IMDFJSON] = []
        /// The polygons of each floor's units, for its walls.
        var boundaries: [Int: IMDFWalls] = [:]

        init(venue: Venue, anchor: GeoAnchor) {
            self.venue = venue
            self.anchor = anchor
        }

        mutating func export(created: Date) throws -> IMDFExport {
            let levels = try levelFeatures()
            buildingFeatures()
            let geofences = zones()
            connections()
            let openings = openingFeatures()
            if !venue.nodes.isEmpty {
                notes.append(
                    "\(venue.nodes.count) node\(venue.nodes.count == 1 ? "" : "s") left out: IMDF has no place for "
                        + "beacons and gateways")
            }
            if anchor.bearingDegrees != 0 {
                notes.append(
                    "the anchor's bearing (\(DatasetCSV.number(anchor.bearingDegrees))°) has no place in IMDF: an "
                        + "import without an anchor places the venue north-up around the same display point")
            }
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            let manifest: IMDFJSON = .object([
                "version": .string("1.0.0"), "created": .string(formatter.string(from: created)),
                "generated_by": .string("Indoor"), "language": .string("en"), "extensions": .null,
            ])
            var files = [
                "manifest.json": try Self.encode(manifest),
                "venue.geojson": try Self.collection([venueFeature()]),
                "level.geojson": try Self.collection(levels),
                "unit.geojson": try Self.collection(units),
                "opening.geojson": try Self.collection(openings),
            ]
            if !geofences.isEmpty { files["geofence.geojson"] = try Self.collection(geofences) }
            if !anchors.isEmpty { files["anchor.geojson"] = try Self.collection(anchors) }
            if !occupants.isEmpty { files["occupant.geojson"] = try Self.collection(occupants) }
            if !amenities.isEmpty { files["amenity.geojson"] = try Self.collection(amenities) }
            if !buildings.isEmpty { files["building.geojson"] = try Self.collection(buildings) }
            return IMDFExport(files: files, notes: notes)
        }

        // MARK: Features

        func feature(_ type: String, id: String, geometry: IMDFJSON, properties: [String: IMDFJSON]) -> IMDFJSON {
            .object([
                "id": .string(id), "type": .string("Feature"), "feature_type": .string(type), "geometry": geometry,
                "properties": .object(properties),
            ])
        }

        func labels(_ text: String) -> IMDFJSON { .object(["en": .string(text)]) }

        func levelID(_ level: Int) -> String { IMDFExporter.featureID("level", "\(level)", venue: venue.id) }

        func venueFeature() -> IMDFJSON {
            let outline = venue.floors.max { $0.outline.area < $1.outline.area }?.outline
            let origin = anchor.origin
            return feature(
                "venue", id: IMDFExporter.featureID("venue", venue.id, venue: venue.id),
                geometry: outline.map { polygon($0) } ?? .null,
                properties: [
                    "category": .string("businesscampus"), "restriction": .null, "name": labels(venue.name),
                    "alt_name": .null, "hours": .null, "phone": .null, "website": .null, "address_id": .null,
                    "display_point": .object([
                        "type": .string("Point"),
                        "coordinates": .array([.number(origin.longitude), .number(origin.latitude)]),
                    ]),
                ])
        }

        mutating func levelFeatures() throws -> [IMDFJSON] {
            try venue.floors.enumerated().map { index, floor in
                var outline = floor.outline
                if Set(outline.vertices).count < 3 || outline.area <= 0 {
                    guard let box = boundingBox(of: floor.level) else {
                        throw IMDFExportError(
                            field: "floors[\(index)].outline",
                            message:
                                "floor \(floor.level) has no outline and nothing on it to outline; an IMDF level is a "
                                + "polygon: give the floor an outline")
                    }
                    outline = box
                    notes.append("floor \(floor.level) has no outline: its level is the rectangle around its rooms")
                }
                let names = (floor.building ?? "").components(separatedBy: "; ").filter { !$0.isEmpty }
                return feature(
                    "level", id: levelID(floor.level),
                    geometry: polygons(
                        [outline] + floor.otherOutlines.filter { $0.vertices.count >= 3 }, holes: floor.holes),
                    properties: [
                        "category": .string(floor.category ?? "unspecified"), "restriction": .null,
                        "outdoor": .bool(false), "ordinal": .number(Double(floor.level)), "name": labels(floor.name),
                        "short_name": labels(floor.shortName ?? "\(floor.level)"), "display_point": .null,
                        "address_id": .null,
                        "building_ids": names.isEmpty ? .null : .array(names.map { .string(buildingID($0)) }),
                    ])
            }
        }

        func buildingID(_ name: String) -> String { IMDFExporter.featureID("building", name, venue: venue.id) }

        /// A building feature for each building name of the floors, in the floors' order.
        mutating func buildingFeatures() {
            var seen = Set<String>()
            for floor in venue.floors {
                for name in (floor.building ?? "").components(separatedBy: "; ") where !name.isEmpty {
                    guard seen.insert(name).inserted else { continue }
                    buildings.append(
                        feature(
                            "building", id: buildingID(name), geometry: .null,
                            properties: [
                                "name": labels(name), "alt_name": .null, "category": .string("unspecified"),
                                "restriction": .null, "display_point": .null, "address_id": .null,
                            ]))
                }
            }
        }

        /// The rectangle around everything on floor `level`; `nil` when nothing is.
        func boundingBox(of level: Int) -> Polygon? {
            var points = venue.floor(level: level)?.walls.flatMap { [$0.start, $0.end] } ?? []
            for zone in venue.zones {
                for fence in zone.fences where fence.floor == level { points += vertices(of: fence.shape) }
            }
            for connection in venue.connections where connection.connects(level) {
                points += vertices(of: connection.shape)
            }
            guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(),
                let minY = points.map(\.y).min(), let maxY = points.map(\.y).max(), maxX > minX, maxY > minY
            else { return nil }
            return .rectangle(from: Point2D(x: minX, y: minY), to: Point2D(x: maxX, y: maxY))
        }

        /// Units from room zones, geofences from geofence zones (returned).
        mutating func zones() -> [IMDFJSON] {
            let levels = Set(venue.floors.map(\.level))
            var geofences: [IMDFJSON] = []
            for zone in venue.zones {
                if zone.data["imdf"] == "geofence" {
                    if let geofence = geofence(zone) { geofences.append(geofence) }
                    continue
                }
                for (index, fence) in zone.fences.enumerated() {
                    guard let level = fence.floor, levels.contains(level) else {
                        notes.append(
                            "zone '\(zone.id)' fence \(index) is on no floor of the venue: an IMDF unit is on a level; "
                                + "left out")
                        continue
                    }
                    let shape = shapePolygon(fence.shape, of: "zone '\(zone.id)' fence \(index)")
                    let name = zone.fences.count == 1 ? zone.id : "\(zone.id)#\(fence.id ?? "\(index)")"
                    let unit = IMDFExporter.featureID("unit", name, venue: venue.id)
                    addUnit(
                        id: unit, polygon: shape, holes: fence.holes, level: level,
                        category: zone.data["category"] ?? "room", name: zone.name)
                    if index == 0 { addOccupantsAndAmenities(of: zone, unit: unit, shape: shape) }
                }
                if zone.fences.isEmpty {
                    notes.append("zone '\(zone.id)' has no fence (a zone of beacons): IMDF has no place for it")
                }
            }
            return geofences
        }

        mutating func geofence(_ zone: Zone) -> IMDFJSON? {
            var shapes: [Polygon] = []
            var levels: [Int] = []
            var anyFloor = false
            for (index, fence) in zone.fences.enumerated() {
                let shape = shapePolygon(fence.shape, of: "zone '\(zone.id)' fence \(index)")
                if !shapes.contains(shape) { shapes.append(shape) }
                if let floor = fence.floor {
                    if !levels.contains(floor) { levels.append(floor) }
                } else {
                    anyFloor = true
                }
            }
            guard !shapes.isEmpty else {
                notes.append("geofence zone '\(zone.id)' has no fence: left out")
                return nil
            }
            let geometry: IMDFJSON =
                shapes.count == 1
                ? polygon(shapes[0])
                : .object([
                    "type": .string("MultiPolygon"), "coordinates": .array(shapes.map { .array([ring($0)]) }),
                ])
            return feature(
                "geofence", id: IMDFExporter.featureID("geofence", zone.id, venue: venue.id), geometry: geometry,
                properties: [
                    "category": .string(zone.data["category"] ?? "geofence"), "restriction": .null,
                    "name": labels(zone.name), "alt_name": .null, "correlation_id": .null, "display_point": .null,
                    "building_ids": .null,
                    "level_ids": anyFloor || levels.isEmpty ? .null : .array(levels.map { .string(levelID($0)) }),
                    "parents": .null,
                ])
        }

        /// A unit on every level of each connection, but where a zone's unit of the connection's category covers it.
        mutating func connections() {
            let levels = Set(venue.floors.map(\.level))
            for connection in venue.connections {
                let shape = shapePolygon(connection.shape, of: "connection '\(connection.id)'")
                for level in connection.levels where levels.contains(level) {
                    guard !hasUnit(covering: shape, of: connection.kind, on: level) else { continue }
                    addUnit(
                        id: IMDFExporter.featureID("connection", "\(connection.id)@\(level)", venue: venue.id),
                        polygon: shape, level: level,
                        category: IMDFExporter.unitCategories[connection.kind] ?? "stairs",
                        name: connection.id)
                }
            }
        }

        /// Whether a zone (not a geofence) has a polygon fence on `level` whose category is that of `kind`'s units
        /// (`stairs`, `elevator`) and that overlaps `shape` as the importer joins units into connections.
        func hasUnit(covering shape: Polygon, of kind: FloorConnection.Kind, on level: Int) -> Bool {
            let category = IMDFExporter.unitCategories[kind]
            return venue.zones.contains { zone in
                zone.data["imdf"] != "geofence" && zone.data["category"] == category
                    && zone.fences.contains { fence in
                        guard fence.floor == level, case .polygon(let polygon) = fence.shape else { return false }
                        return IMDFImporter.Reading.overlap(polygon, shape)
                    }
            }
        }

        mutating func addUnit(
            id: String, polygon shape: Polygon, holes: [Polygon] = [], level: Int, category: String, name: String
        ) {
            units.append(
                feature(
                    "unit", id: id, geometry: polygons([shape], holes: holes),
                    properties: [
                        "category": .string(category), "restriction": .null, "accessibility": .null,
                        "name": labels(name), "alt_name": .null, "display_point": .null,
                        "level_id": .string(levelID(level)),
                    ]))
            for ring in [shape] + holes { boundaries[level, default: IMDFWalls()].addBoundary(of: ring) }
        }

        /// The zone's `occupants` (names separated by `; `) as occupants anchored at the middle of `unit`, and its
        /// `amenities` (categories separated by `; `) as amenities there: what ``IMDFImporter`` keeps of them.
        mutating func addOccupantsAndAmenities(of zone: Zone, unit: String, shape: Polygon) {
            func list(_ key: String) -> [String] {
                (zone.data[key] ?? "").components(separatedBy: "; ").filter { !$0.isEmpty }
            }
            let names = list("occupants")
            let kinds = list("amenities")
            guard !names.isEmpty || !kinds.isEmpty else { return }
            let count = Double(max(1, shape.vertices.count))
            let middle = position(
                Point2D(
                    x: shape.vertices.reduce(0) { $0 + $1.x } / count, y: shape.vertices.reduce(0) { $0 + $1.y } / count
                ))
            if !names.isEmpty {
                let anchor = IMDFExporter.featureID("anchor", zone.id, venue: venue.id)
                anchors.append(
                    feature(
                        "anchor", id: anchor, geometry: .object(["type": .string("Point"), "coordinates": middle]),
                        properties: ["unit_id": .string(unit), "address_id": .null]))
                for name in names {
                    occupants.append(
                        feature(
                            "occupant", id: IMDFExporter.featureID("occupant", "\(zone.id)/\(name)", venue: venue.id),
                            geometry: .null,
                            properties: [
                                "name": labels(name), "category": .string("unspecified"), "anchor_id": .string(anchor),
                                "hours": .null, "phone": .null, "website": .null, "validity": .null,
                                "correlation_id": .null,
                            ]))
                }
            }
            for kind in kinds {
                amenities.append(
                    feature(
                        "amenity", id: IMDFExporter.featureID("amenity", "\(zone.id)/\(kind)", venue: venue.id),
                        geometry: .object(["type": .string("Point"), "coordinates": middle]),
                        properties: [
                            "category": .string(kind), "accessibility": .null, "name": .null, "alt_name": .null,
                            "hours": .null, "phone": .null, "website": .null, "unit_ids": .array([.string(unit)]),
                            "address_id": .null, "correlation_id": .null,
                        ]))
            }
        }

        /// The openings of each floor: its unit boundaries that no wall covers.
        mutating func openingFeatures() -> [IMDFJSON] {
            var openings: [IMDFJSON] = []
            for floor in venue.floors {
                let boundary = boundaries[floor.level] ?? IMDFWalls()
                if floor.walls.isEmpty {
                    if boundaries[floor.level] != nil {
                        notes.append(
                            "floor \(floor.level) has no walls: no openings written, so its room boundaries read back "
                                + "as walls")
                    }
                    continue
                }
                let (pieces, offBoundary) = boundary.openings(leftBy: floor.walls)
                if !offBoundary.isEmpty {
                    notes.append(
                        "floor \(floor.level): \(offBoundary.count) wall\(offBoundary.count == 1 ? "" : "s") on no room "
                            + "boundary left out: IMDF draws walls as the boundaries of units")
                }
                for (index, piece) in pieces.enumerated() {
                    openings.append(
                        feature(
                            "opening",
                            id: IMDFExporter.featureID("opening", "\(floor.level)/\(index)", venue: venue.id),
                            geometry: .object([
                                "type": .string("LineString"),
                                "coordinates": .array([position(piece.start), position(piece.end)]),
                            ]),
                            properties: [
                                "category": .string("pedestrian"), "accessibility": .null, "access_control": .null,
                                "door": .null, "name": .null, "alt_name": .null, "display_point": .null,
                                "level_id": .string(levelID(floor.level)),
                            ]))
                }
            }
            return openings
        }

        // MARK: Geometry

        func vertices(of shape: ZoneFence.Shape) -> [Point2D] {
            switch shape {
            case .polygon(let polygon): polygon.vertices
            case .circle(let center, let radius):
                (0..<IMDFExporter.circleSides).map { step in
                    let angle = Double(step) / Double(IMDFExporter.circleSides) * 2 * .pi
                    return Point2D(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
                }
            }
        }

        mutating func shapePolygon(_ shape: ZoneFence.Shape, of what: String) -> Polygon {
            if case .circle = shape {
                notes.append("\(what) is a circle: written as a polygon of \(IMDFExporter.circleSides) sides")
            }
            return Polygon(vertices(of: shape))
        }

        /// A GeoJSON position `[longitude, latitude]`, degrees to 1e-9 (0.1 mm).
        func position(_ point: Point2D) -> IMDFJSON {
            let coordinate = anchor.coordinate(of: point)
            return .array([
                .number((coordinate.longitude * 1e9).rounded() / 1e9),
                .number((coordinate.latitude * 1e9).rounded() / 1e9),
            ])
        }

        /// A closed ring, counter-clockwise for an outer ring and clockwise for a hole (RFC 7946 §3.1.6).
        func ring(_ polygon: Polygon, hole: Bool = false) -> IMDFJSON {
            let points = polygon.vertices
            let doubleArea = zip(points, points.dropFirst() + points.prefix(1)).reduce(0.0) {
                $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y
            }
            // The local frame turns with the anchor's bearing but keeps its handedness: counter-clockwise stays so.
            let ordered = (doubleArea < 0) != hole ? Array(points.reversed()) : points
            return .array((ordered + ordered.prefix(1)).map(position))
        }

        func polygon(_ polygon: Polygon) -> IMDFJSON {
            .object(["type": .string("Polygon"), "coordinates": .array([ring(polygon)])])
        }

        /// A Polygon of `outlines[0]`, or a MultiPolygon of several, with each hole an inner ring of the first outline
        /// that holds it (of the first outline when none does).
        func polygons(_ outlines: [Polygon], holes: [Polygon]) -> IMDFJSON {
            var inner: [[Polygon]] = outlines.map { _ in [] }
            for hole in holes {
                let index = hole.vertices.first.flatMap { first in outlines.firstIndex { $0.contains(first) } } ?? 0
                if inner.indices.contains(index) { inner[index].append(hole) }
            }
            let rings = outlines.indices.map { index in
                IMDFJSON.array([ring(outlines[index])] + inner[index].map { ring($0, hole: true) })
            }
            if rings.count == 1, let only = rings.first {
                return .object(["type": .string("Polygon"), "coordinates": only])
            }
            return .object(["type": .string("MultiPolygon"), "coordinates": .array(rings)])
        }

        static func collection(_ features: [IMDFJSON]) throws -> Data {
            try encode(.object(["type": .string("FeatureCollection"), "features": .array(features)]))
        }

        static func encode(_ value: IMDFJSON) throws -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return try encoder.encode(value)
        }
    }
}
