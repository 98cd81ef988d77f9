import Foundation

/// Reads an IMDF archive (Indoor Mapping Data Format, OGC 20-094: a manifest and one GeoJSON file per feature type)
/// as a ``Venue``.
///
/// - Levels become floors: `ordinal` → `level`, the level's polygon → `outline` (of a MultiPolygon, the largest;
///   the others → `otherOutlines`), its holes → `holes`, its `name` (else `short_name`) → `name`, `short_name` →
///   `shortName`, `category` → `category` (but `unspecified`), the names of its `building_ids` → `building`
///   (separated by `; `). Levels sharing an ordinal (several buildings) make one floor of all their polygons.
/// - Units become zones (`id` the unit's id, `name` its name, else its `alt_name`, else its category and a number,
///   `Room 12`) with a polygon fence on the unit's floor (one per polygon of a MultiPolygon, with its holes) and `data`
///   `{"category": <unit category>, "imdf": "unit"}`, plus `occupants` (the names of the occupants anchored in it,
///   separated by `; `) and `amenities` (the categories of the amenities in it) when there are any.
/// - Unit boundaries (holes' included) become the floor's walls: each edge once, with a gap wherever an opening (a
///   LineString, or each line of a MultiLineString) lies within 10 cm of a wall along its whole length, in every such
///   wall, whatever small angle that implies (``IMDFWalls/openingAngle(length:)``); a floor of units without any
///   opening is a note.
/// - Stairs, elevator, escalator and ramp units whose footprints overlap on different levels become a connection.
/// - Geofences become zones with a polygon fence on each of their `level_ids` (on every floor without them),
///   `data` `{"category": …, "imdf": "geofence"}`.
/// - The venue's `display_point` becomes the anchor (bearing 0, +y north), unless an anchor is given (without one,
///   the first building's or level's display point, or the middle of the venue's outline, said in the notes); every
///   coordinate goes from WGS84 to local metres through it (``GeoAnchor/point(of:)``).
/// - Every other feature (fixture, kiosk, section, …) is counted by type in the report.
///
/// Names are taken in the manifest's `language` (LABELS objects such as `{"en": "Lobby"}`).
public enum IMDFImporter {
    /// The files whose features become part of the venue.
    static let usedTypes = [
        "venue", "level", "unit", "opening", "geofence", "occupant", "anchor", "amenity", "building",
    ]

    /// Unit categories that join floors, and the connection kind each becomes.
    static let connectionKinds: [String: FloorConnection.Kind] = [
        "stairs": .stairs, "elevator": .lift, "escalator": .escalator, "ramp": .ramp,
    ]

    /// Imports the IMDF archive `files` (path within the archive → bytes; at its top level or in one folder).
    ///
    /// - Parameters:
    ///   - files: The archive's files.
    ///   - id: The venue id; by default ``venueID(name:)`` of the IMDF venue's name.
    ///   - anchor: The local frame to place the venue in; by default the IMDF venue's display point, bearing 0.
    /// - Returns: The venue and a report of what it does not hold.
    /// - Throws: ``IMDFError`` naming the file, the feature id and the JSON path: no manifest, malformed JSON, a
    ///   geometry of the wrong type, a unit or opening on a level the archive does not have, a coordinate out of
    ///   range, a unit polygon that crosses itself.
    public static func venue(from files: [String: Data], id: String? = nil, anchor: GeoAnchor? = nil) throws
        -> IMDFImport
    {
        var reading = try Reading(files: IMDFFiles(files))
        return try reading.venue(id: id, anchor: anchor)
    }

    /// An IMDF category as a title: `restroom.female` → `Restroom female`, `room` → `Room`.
    static func title(ofCategory category: String) -> String {
        let words = category.replacingOccurrences(of: ".", with: " ").replacingOccurrences(of: "_", with: " ")
        guard let first = words.first else { return "Unit" }
        return first.uppercased() + words.dropFirst()
    }

    /// A venue id from an IMDF venue's name: lower-case letters and digits, a `-` for each run of anything else
    /// (`Head Office (HQ)` → `head-office-hq`), at most 64 characters; `imdf-venue` when nothing is left.
    static func venueID(name: String) -> String {
        var id = ""
        for scalar in name.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                id.unicodeScalars.append(scalar)
            } else if !id.isEmpty, id.last != "-" {
                id.append("-")
            }
        }
        id = String(id.prefix(64))
        while id.hasSuffix("-") { id.removeLast() }
        return id.isEmpty ? "imdf-venue" : id
    }
}

extension IMDFImporter {
    /// One import under way: the archive, what has been read, the report so far.
    struct Reading {
        var files: IMDFFiles
        var report = IMDFReport()
        var language = "en"
        /// The name each unit's zone was given, by unit id, for the notes.
        var unitNames: [String: String] = [:]

        init(files: IMDFFiles) {
            self.files = files
        }

        /// The names of the archive's buildings, by id (read before the levels that name them).
        var buildings: [String: String] = [:]
        /// The buildings some level names.
        var usedBuildings = Set<String>()

        /// A floor being built from one or more levels of one ordinal.
        struct FloorDraft {
            var name: String
            var shortName: String?
            var category: String?
            /// The area of the largest level's polygons, m², to name the floor after it.
            var largestArea: Double
            var outlines: [Polygon] = []
            var holes: [Polygon] = []
            var buildings: [String] = []
            var walls = IMDFWalls.merging()
            /// How many units and openings lie on the floor.
            var units = 0
            var openings = 0

            /// The floor: the largest polygon its outline (the first of those equal to a millionth, so that an export,
            /// which rounds, reads back the same), the others its other outlines.
            func floor(level: Int) -> Floor {
                let most = outlines.map(\.area).max() ?? 0
                let largest = outlines.indices.first { outlines[$0].area >= most * (1 - 1e-6) }
                let outline = largest.map { outlines[$0] } ?? Polygon([])
                let others = outlines.indices.filter { $0 != largest }.map { outlines[$0] }
                return Floor(
                    level: level, name: name, outline: outline, walls: walls.walls, otherOutlines: others, holes: holes,
                    shortName: shortName, category: category,
                    building: buildings.isEmpty ? nil : buildings.joined(separator: "; "))
            }
        }

        mutating func venue(id: String?, anchor given: GeoAnchor?) throws -> IMDFImport {
            let manifest = try IMDFJSON.parse(try required("manifest.json"), file: files.path("manifest.json"))
            guard case .object = manifest else {
                throw IMDFError(
                    file: files.path("manifest.json"), message: "expected a JSON object, found \(manifest.kind)")
            }
            if let language = manifest["language"]?.string, !language.isEmpty { self.language = language }

            let venues = try features("venue", required: true)
            guard let venueFeature = venues.first else {
                throw IMDFError(file: files.path("venue.geojson"), message: "no venue feature; an IMDF archive has one")
            }
            if venues.count > 1 {
                report.notes.append(
                    "venue.geojson has \(venues.count) venues: the first, '\(venueFeature.id)', was taken")
            }
            let anchor = try given ?? GeoAnchor(origin: origin(of: venueFeature))
            var geometry = IMDFGeometry(anchor: anchor)
            if given != nil { geometry.origin = "the venue's anchor" }
            let name = IMDFLabels.text(venueFeature.property("name"), language: language) ?? "IMDF venue"

            var drafts: [Int: FloorDraft] = [:]
            var ordinals: [String: Int] = [:]
            buildings = try buildingNames()
            try readLevels(geometry: geometry, drafts: &drafts, ordinals: &ordinals)
            var zones: [Zone] = []
            var seen: [String: IMDFFeature] = [:]
            let connections = try readUnits(
                geometry: geometry, drafts: &drafts, ordinals: ordinals, zones: &zones, seen: &seen)
            try readOpenings(geometry: geometry, drafts: &drafts, ordinals: ordinals)
            try readGeofences(geometry: geometry, ordinals: ordinals, zones: &zones, seen: &seen)
            try countUnused()

            let floors = drafts.keys.sorted().compactMap { level in drafts[level]?.floor(level: level) }
            for (id, name) in buildings.sorted(by: { $0.key < $1.key }) where !usedBuildings.contains(id) {
                report.notes.append("building '\(name)' is named by no level: its name is not kept")
            }
            let venue = Venue(
                id: id ?? IMDFImporter.venueID(name: name), name: name, floors: floors, zones: zones,
                anchor: anchor, connections: connections)
            // What the venue JSON reader would refuse is refused here, so that the result can be written and read back.
            do {
                _ = try Venue.decodeJSON(try venue.encodeJSON(), file: "venue")
            } catch {
                throw IMDFError(file: "archive", message: "the imported venue is not valid: \(error)")
            }
            return IMDFImport(venue: venue, report: report)
        }

        /// Where the local frame's origin goes when no anchor is given: the venue's display point, else the first
        /// building's or level's display point, else the middle of the venue's own outline (its bounding box); a note
        /// says which when it is not the venue's display point.
        /// - Throws: ``IMDFError`` when none of them is there, or one that is there is not a valid point.
        mutating func origin(of venue: IMDFFeature) throws -> GeoCoordinate {
            if let display = venue.property("display_point") {
                return try IMDFGeometry.coordinate(ofPoint: display, feature: venue, path: "properties.display_point")
            }
            for type in ["building", "level"] {
                for feature in try features(type) {
                    guard let display = feature.property("display_point") else { continue }
                    let origin = try IMDFGeometry.coordinate(
                        ofPoint: display, feature: feature, path: "properties.display_point")
                    report.notes.append(
                        "the venue has no display point: the anchor is the display point of \(type) '\(feature.id)'")
                    return origin
                }
            }
            if let centre = Self.boundingBoxCentre(of: venue.geometry) {
                report.notes.append("the venue has no display point: the anchor is the middle of the venue's outline")
                return centre
            }
            throw venue.error(
                at: "properties.display_point",
                "missing: the venue's display point places the venue on the Earth, and no building, level or venue "
                    + "outline gives another; give an anchor (indoor venue import --anchor LAT,LON)")
        }

        /// The middle of the bounding box of every valid position in a GeoJSON geometry; `nil` when it has none.
        static func boundingBoxCentre(of geometry: IMDFJSON) -> GeoCoordinate? {
            var longitudes: [Double] = []
            var latitudes: [Double] = []
            func visit(_ value: IMDFJSON, depth: Int) {
                guard depth < 8, let items = value.array else { return }
                if items.count >= 2, let longitude = items[0].number, let latitude = items[1].number {
                    if (-180...180).contains(longitude), (-90...90).contains(latitude) {
                        longitudes.append(longitude)
                        latitudes.append(latitude)
                    }
                    return
                }
                for item in items { visit(item, depth: depth + 1) }
            }
            if let coordinates = geometry["coordinates"] { visit(coordinates, depth: 0) }
            guard let west = longitudes.min(), let east = longitudes.max(), let south = latitudes.min(),
                let north = latitudes.max()
            else { return nil }
            return GeoCoordinate(latitude: (south + north) / 2, longitude: (west + east) / 2)
        }

        // MARK: Files

        func required(_ name: String) throws -> Data {
            guard let data = files[name] else {
                throw IMDFError(file: files.path(name), message: "missing: an IMDF archive needs \(name)")
            }
            return data
        }

        func features(_ type: String, required: Bool = false) throws -> [IMDFFeature] {
            let name = "\(type).geojson"
            guard let data = files[name] else {
                if required {
                    throw IMDFError(file: files.path(name), message: "missing: an IMDF archive needs \(name)")
                }
                return []
            }
            return try IMDFFeature.collection(data, file: files.path(name), type: type)
        }

        /// Counts the features of every GeoJSON file not used, by feature type; lists the other files.
        mutating func countUnused() throws {
            let used = Set((["manifest.json"] + IMDFImporter.usedTypes.map { "\($0).geojson" }).map(files.path))
            for path in files.others(than: used) {
                guard path.hasSuffix(".geojson"), let data = files.files[path] else {
                    report.unusedFiles.append(path)
                    continue
                }
                let type = String(path.split(separator: "/").last?.dropLast(".geojson".count) ?? "")
                for feature in try IMDFFeature.collection(data, file: path, type: type) {
                    report.unusedFeatures[feature.type, default: 0] += 1
                }
            }
        }

        // MARK: Levels

        mutating func readLevels(geometry: IMDFGeometry, drafts: inout [Int: FloorDraft], ordinals: inout [String: Int])
            throws
        {
            let levels = try features("level", required: true)
            guard !levels.isEmpty else {
                throw IMDFError(file: files.path("level.geojson"), message: "no level features; a venue needs a floor")
            }
            for level in levels {
                guard ordinals[level.id] == nil else {
                    throw level.error(at: "id", "level id '\(level.id)' is used twice in level.geojson")
                }
                guard let value = level.property("ordinal") else {
                    throw level.error(at: "properties.ordinal", "missing: a level needs its 'ordinal' (0 = ground)")
                }
                guard let number = value.number, number.rounded() == number, abs(number) <= 10_000 else {
                    throw level.error(
                        at: "properties.ordinal",
                        "expected an integer ordinal, found \(value.number.map { DatasetCSV.number($0) } ?? value.kind)"
                    )
                }
                let ordinal = Int(number)
                ordinals[level.id] = ordinal
                let parts = try geometry.polygons(of: level)
                if parts.count > 1 {
                    report.notes.append(
                        "level '\(level.id)' is drawn as \(parts.count) polygons: floor \(ordinal) keeps them all as its "
                            + "outlines")
                }
                let name =
                    IMDFLabels.text(level.property("name"), language: language)
                    ?? IMDFLabels.text(level.property("short_name"), language: language) ?? "Level \(ordinal)"
                let shortName = IMDFLabels.text(level.property("short_name"), language: language)
                // IMDF's default category says nothing: a floor without a category is written back with it.
                let category = try level.text("category").flatMap { $0 == "unspecified" ? nil : $0 }
                let area = parts.reduce(0) { $0 + $1.polygon.area }
                var buildingNames: [String] = []
                for id in level.property("building_ids")?.array ?? [] {
                    guard let id = id.string else { continue }
                    usedBuildings.insert(id)
                    if let building = buildings[id], !buildingNames.contains(building) {
                        buildingNames.append(building)
                    }
                }
                var draft =
                    drafts[ordinal]
                    ?? FloorDraft(name: name, shortName: shortName, category: category, largestArea: area)
                if drafts[ordinal] != nil {
                    report.notes.append(
                        "level '\(level.id)' shares ordinal \(ordinal) with another level: one floor of both levels' "
                            + "outlines, named as the larger")
                    if area > draft.largestArea {
                        draft.name = name
                        draft.shortName = shortName
                        draft.category = category
                        draft.largestArea = area
                    }
                }
                // A polygon drawn twice (two buildings' levels sharing one footprint) is kept once.
                for part in parts where !draft.outlines.contains(part.polygon) {
                    draft.outlines.append(part.polygon)
                    draft.holes += part.holes.filter { !draft.holes.contains($0) }
                }
                for building in buildingNames where !draft.buildings.contains(building) {
                    draft.buildings.append(building)
                }
                drafts[ordinal] = draft
            }
        }

        /// The names of the archive's buildings, by building id (a building without a name is named by its id).
        mutating func buildingNames() throws -> [String: String] {
            var names: [String: String] = [:]
            for building in try features("building") {
                names[building.id] =
                    IMDFLabels.text(building.property("name"), language: language)
                    ?? IMDFLabels.text(building.property("alt_name"), language: language) ?? building.id
            }
            return names
        }

        func ordinal(of feature: IMDFFeature, ordinals: [String: Int], property: String = "level_id") throws -> Int {
            guard let levelID = try feature.text(property) else {
                throw feature.error(
                    at: "properties.\(property)",
                    "missing: \(IMDFGeometry.article(feature.type)) needs the id of its level")
            }
            guard let ordinal = ordinals[levelID] else {
                throw feature.error(
                    at: "properties.\(property)", "level '\(levelID)' is not a level of \(files.path("level.geojson"))")
            }
            return ordinal
        }

        // MARK: Units

        /// Reads the units as zones and walls; returns the connections their stairs and lifts make.
        mutating func readUnits(
            geometry: IMDFGeometry, drafts: inout [Int: FloorDraft], ordinals: [String: Int], zones: inout [Zone],
            seen: inout [String: IMDFFeature]
        ) throws -> [FloorConnection] {
            var joining: [(unit: IMDFFeature, level: Int, kind: FloorConnection.Kind, polygon: Polygon)] = []
            let occupants = try occupantsByUnit()
            let amenities = try amenitiesByUnit()
            var unnamed: [String: Int] = [:]
            var named = 0
            for unit in try features("unit") {
                try claim(unit, seen: &seen)
                let level = try ordinal(of: unit, ordinals: ordinals)
                let parts = try geometry.polygons(of: unit)
                try checkFences(parts, of: unit)
                let category = try unit.text("category")
                var name =
                    IMDFLabels.text(unit.property("name"), language: language)
                    ?? IMDFLabels.text(unit.property("alt_name"), language: language)
                if name == nil {
                    let title = IMDFImporter.title(ofCategory: category ?? "unit")
                    unnamed[title, default: 0] += 1
                    name = "\(title) \(unnamed[title, default: 1])"
                    named += 1
                }
                let zoneName = name ?? unit.id
                unitNames[unit.id] = zoneName
                if parts.count > 1 {
                    report.notes.append(
                        "unit '\(zoneName)' is a MultiPolygon of \(parts.count) polygons: each is a fence of its zone")
                }
                var data = ["imdf": "unit"]
                if let category { data["category"] = category }
                if let names = occupants[unit.id] { data["occupants"] = names.joined(separator: "; ") }
                if let kinds = amenities[unit.id] { data["amenities"] = kinds.joined(separator: "; ") }
                zones.append(
                    Zone(
                        id: unit.id, name: zoneName,
                        fences: parts.map { .polygon($0.polygon, floor: level, holes: $0.holes) },
                        data: data))
                for part in parts {
                    for ring in [part.polygon] + part.holes { drafts[level]?.walls.addBoundary(of: ring) }
                }
                drafts[level]?.units += 1
                if let category, let kind = IMDFImporter.connectionKinds[category], let first = parts.first {
                    joining.append((unit, level, kind, first.polygon))
                }
            }
            if named > 0 {
                report.notes.append(
                    "\(named) unit(s) without a name were named by their category and a number (\"Room 1\")")
            }
            return connections(joining)
        }

        /// The names of the occupants of each unit (through their anchors), by unit id, in the archive's order.
        mutating func occupantsByUnit() throws -> [String: [String]] {
            var unitOfAnchor: [String: String] = [:]
            for anchor in try features("anchor") {
                if let unit = try anchor.text("unit_id") { unitOfAnchor[anchor.id] = unit }
            }
            var names: [String: [String]] = [:]
            for occupant in try features("occupant") {
                guard let name = IMDFLabels.text(occupant.property("name"), language: language) else { continue }
                guard let anchor = try occupant.text("anchor_id"), let unit = unitOfAnchor[anchor] else {
                    report.notes.append("occupant '\(name)' is in no unit (its anchor names none): not kept")
                    continue
                }
                names[unit, default: []].append(name)
            }
            return names
        }

        /// The categories of the amenities in each unit (`restroom`, `atm`), by unit id, each once, sorted.
        mutating func amenitiesByUnit() throws -> [String: [String]] {
            var kinds: [String: Set<String>] = [:]
            for amenity in try features("amenity") {
                guard let category = try amenity.text("category") else { continue }
                for unit in amenity.property("unit_ids")?.array ?? [] {
                    if let id = unit.string { kinds[id, default: []].insert(category) }
                }
            }
            return kinds.mapValues { $0.sorted() }
        }

        /// Stairs (lifts, escalators, ramps) on different levels whose footprints overlap, joined into connections.
        mutating func connections(
            _ units: [(unit: IMDFFeature, level: Int, kind: FloorConnection.Kind, polygon: Polygon)]
        ) -> [FloorConnection] {
            var group = Array(units.indices)
            func root(_ index: Int) -> Int {
                var index = index
                while group[index] != index { index = group[index] }
                return index
            }
            for i in units.indices {
                for j in units.indices where j > i && units[i].kind == units[j].kind && units[i].level != units[j].level
                {
                    if Self.overlap(units[i].polygon, units[j].polygon) { group[root(j)] = root(i) }
                }
            }
            var members: [Int: [Int]] = [:]
            for index in units.indices { members[root(index), default: []].append(index) }
            var connections: [FloorConnection] = []
            for key in members.keys.sorted() {
                guard let indices = members[key] else { continue }
                let levels = Array(Set(indices.map { units[$0].level })).sorted()
                guard levels.count >= 2,
                    let lowest = indices.min(by: { units[$0].level < units[$1].level })
                else { continue }
                let unit = units[lowest]
                connections.append(
                    FloorConnection(id: unit.unit.id, kind: unit.kind, levels: levels, shape: .polygon(unit.polygon)))
                let names = indices.map { "'\(unitNames[units[$0].unit.id] ?? units[$0].unit.id)'" }.joined(
                    separator: ", ")
                report.notes.append(
                    "units \(names) (\(unit.kind.rawValue)) make connection '\(unit.unit.id)' joining levels "
                        + levels.map(String.init).joined(separator: ", "))
            }
            return connections
        }

        /// Whether either polygon holds the other's vertex mean.
        static func overlap(_ a: Polygon, _ b: Polygon) -> Bool {
            func center(_ polygon: Polygon) -> Point2D {
                let count = Double(max(polygon.vertices.count, 1))
                return Point2D(
                    x: polygon.vertices.reduce(0) { $0 + $1.x } / count,
                    y: polygon.vertices.reduce(0) { $0 + $1.y } / count)
            }
            return a.contains(center(b)) || b.contains(center(a))
        }

        /// Every polygon of `feature` can be a fence (simple, at most ``ZoneFence/maximumVertices``), and each of its
        /// holes a hole of that fence (simple, inside it).
        func checkFences(_ parts: [IMDFGeometry.Part], of feature: IMDFFeature) throws {
            for (index, part) in parts.enumerated() {
                let path = feature.geometry["type"]?.string == "MultiPolygon" ? "[\(index)]" : ""
                if let problem = ZoneFence.problem(with: part.polygon) {
                    throw feature.error(at: "geometry.coordinates\(path)[0]", problem)
                }
                for (number, hole) in part.holes.enumerated() {
                    var problem = ZoneFence.problem(with: hole)?.replacingOccurrences(of: "polygon fence", with: "hole")
                    if problem == nil, !hole.vertices.allSatisfy(part.polygon.contains) {
                        problem = "a hole must lie inside its polygon's outer ring"
                    }
                    if let problem { throw feature.error(at: "geometry.coordinates\(path)[\(number + 1)]", problem) }
                }
            }
        }

        /// Zone ids are unique: a unit or geofence id met before is refused.
        func claim(_ feature: IMDFFeature, seen: inout [String: IMDFFeature]) throws {
            if let first = seen[feature.id] {
                throw feature.error(
                    at: "id",
                    "id '\(feature.id)' is also the id of \(first.file) features[\(first.index)]; feature ids are unique"
                )
            }
            seen[feature.id] = feature
        }

        // MARK: Openings

        /// Cuts each opening into the walls of its floor. An opening on no wall is a note; so is a MultiLineString
        /// (IMDF asks for a LineString: each of its lines is cut), and a floor of units without any opening (its rooms
        /// closed all round).
        mutating func readOpenings(geometry: IMDFGeometry, drafts: inout [Int: FloorDraft], ordinals: [String: Int])
            throws
        {
            for opening in try features("opening") {
                let level = try ordinal(of: opening, ordinals: ordinals)
                let lines = try geometry.lineStrings(of: opening)
                if opening.geometry["type"]?.string == "MultiLineString" {
                    report.notes.append(
                        lines.count == 1
                            ? "opening '\(opening.id)' is a MultiLineString of one line: read as that LineString"
                            : "opening '\(opening.id)' is a MultiLineString of \(lines.count) lines: each is cut as a "
                                + "piece of the opening")
                }
                drafts[level]?.openings += 1
                var placed = true
                for points in lines {
                    if drafts[level]?.walls.addOpening(points) != true { placed = false }
                }
                if !placed {
                    report.notes.append(
                        "opening '\(opening.id)' lies on no unit boundary of floor \(level): no gap was cut for it")
                }
            }
            for (level, draft) in drafts.sorted(by: { $0.key < $1.key }) where draft.units > 1 && draft.openings == 0 {
                report.notes.append(
                    "floor \(level) has no opening: every boundary of its \(draft.units) units is a wall, so none of "
                        + "its rooms leads into another")
            }
        }

        // MARK: Geofences

        mutating func readGeofences(
            geometry: IMDFGeometry, ordinals: [String: Int], zones: inout [Zone], seen: inout [String: IMDFFeature]
        ) throws {
            for geofence in try features("geofence") {
                try claim(geofence, seen: &seen)
                var levels: [Int?] = [nil]
                if let value = geofence.property("level_ids") {
                    guard let ids = value.array else {
                        throw geofence.error(
                            at: "properties.level_ids", "expected an array of level ids, found \(value.kind)")
                    }
                    levels = try ids.enumerated().map { index, id -> Int? in
                        guard let text = id.string, let level = ordinals[text] else {
                            throw geofence.error(
                                at: "properties.level_ids[\(index)]",
                                "\(id.string.map { "level '\($0)'" } ?? "\(id.kind)") is not a level of "
                                    + files.path("level.geojson"))
                        }
                        return level
                    }
                    if levels.isEmpty { levels = [nil] }
                }
                let parts = try geometry.polygons(of: geofence)
                try checkFences(parts, of: geofence)
                let category = try geofence.text("category")
                var data = ["imdf": "geofence"]
                if let category { data["category"] = category }
                let fences = levels.flatMap { level in
                    parts.map { ZoneFence.polygon($0.polygon, floor: level, holes: $0.holes) }
                }
                zones.append(
                    Zone(
                        id: geofence.id,
                        name: IMDFLabels.text(geofence.property("name"), language: language)
                            ?? IMDFImporter.title(ofCategory: category ?? "geofence"),
                        fences: fences, data: data))
            }
        }
    }
}
