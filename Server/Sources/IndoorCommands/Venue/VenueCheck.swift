import Foundation
import IndoorModel

/// What `indoor venue check` finds wrong in a venue that reads: the mistakes that make every fix worse without an
/// error, each a line naming the JSON path.
struct VenueCheck {
    /// How far a node is taken to be heard, metres: a zone farther than this from every node of its floor gets no
    /// fix inside it worth having. Bluetooth LE indoors carries 10–30 m through walls.
    static let reach = 30.0
    /// Two nodes closer than this, metres, on one floor are taken to be one place (a copied coordinate).
    static let samePlace = 0.05

    let venue: Venue

    /// Every problem that stops the venue in `data` from being read, one line each naming `file` and the JSON path:
    /// each floor, node, zone and connection is read on its own, so one bad node does not hide another; a problem
    /// between them (two nodes with one id) is said once they all read. Empty when the venue reads.
    static func errors(in data: Data, file: String) -> [String] {
        let whole: String
        do {
            _ = try Venue.decodeJSON(data, file: file)
            return []
        } catch {
            whole = "\(error)"
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return [whole] }
        var errors: [String] = []
        func check<Item: Decodable>(_ key: String, as type: Item.Type) {
            guard let items = object[key] as? [Any] else { return }
            for (index, item) in items.enumerated() {
                guard let itemData = try? JSONSerialization.data(withJSONObject: item, options: [.fragmentsAllowed])
                else { continue }
                do {
                    _ = try JSONFormat.decode(Item.self, from: itemData, file: file)
                } catch let error as FormatError {
                    let separator = error.field == nil ? ": " : "."
                    errors.append("\(file): \(key)[\(index)]\(separator)\(error.message)")
                } catch {
                    errors.append("\(file): \(key)[\(index)]: \(error)")
                }
            }
        }
        check("floors", as: Floor.self)
        check("nodes", as: Node.self)
        check("zones", as: Zone.self)
        check("connections", as: FloorConnection.self)
        return errors.isEmpty ? [whole] : errors
    }

    /// The warnings, in the venue's order: floors, nodes, zones.
    var warnings: [String] {
        floorWarnings + nodeWarnings + zoneWarnings
    }

    /// A floor no node is on.
    private var floorWarnings: [String] {
        guard venue.floors.count > 1 || !venue.nodes.isEmpty else { return [] }
        return venue.floors.enumerated().compactMap { index, floor in
            let hasNode = venue.nodes.contains { ($0.floor ?? venue.floors.first?.level) == floor.level }
            return hasNode ? nil : "floors[\(index)] (level \(floor.level)): no node is on this floor"
        }
    }

    /// A node outside its floor's outline; two nodes at one place.
    private var nodeWarnings: [String] {
        var warnings: [String] = []
        for (index, node) in venue.nodes.enumerated() {
            let point = Point2D(x: node.position.x, y: node.position.y)
            if let floor = floor(of: node.floor), floor.hasOutline, !floor.contains(point),
                floor.distanceToBoundary(from: point) > Self.samePlace
            {
                warnings.append(
                    "nodes[\(index)] ('\(node.id)') at \(Self.text(point)) is outside floor \(floor.level)'s outline "
                        + "(\(Self.metres(floor.distanceToBoundary(from: point))) from it)")
            }
            for other in venue.nodes.indices where other < index {
                let earlier = venue.nodes[other]
                guard earlier.floor == node.floor else { continue }
                let distance = hypot(earlier.position.x - node.position.x, earlier.position.y - node.position.y)
                if distance < Self.samePlace {
                    warnings.append(
                        "nodes[\(index)] ('\(node.id)') is at the same place as nodes[\(other)] ('\(earlier.id)'), "
                            + "\(Self.text(point)): a copied coordinate?")
                }
            }
        }
        return warnings
    }

    /// A zone with a fence that no node is within ``reach`` of.
    private var zoneWarnings: [String] {
        var warnings: [String] = []
        for (index, zone) in venue.zones.enumerated() {
            for (fenceIndex, fence) in zone.fences.enumerated() {
                let nodes = venue.nodes.filter { fence.floor == nil || $0.floor == nil || $0.floor == fence.floor }
                let nearest = nodes.map { Self.distance(from: Point2D(x: $0.position.x, y: $0.position.y), to: fence) }
                    .min()
                guard let nearest, nearest <= Self.reach else {
                    let how = nearest.map { "the nearest node is \(Self.metres($0)) away" } ?? "no node is on its floor"
                    warnings.append(
                        "zones[\(index)].fences[\(fenceIndex)] (zone '\(zone.id)'): \(how); beyond "
                            + "\(Int(Self.reach)) m no node can hear a device inside it")
                    continue
                }
            }
        }
        return warnings
    }

    private func floor(of level: Int?) -> Floor? {
        guard let level else { return venue.floors.count == 1 ? venue.floors.first : nil }
        return venue.floors.first { $0.level == level }
    }

    /// Metres from `point` to the fence: 0 inside it.
    static func distance(from point: Point2D, to fence: ZoneFence) -> Double {
        switch fence.shape {
        case .circle(let center, let radius):
            return max(0, hypot(point.x - center.x, point.y - center.y) - radius)
        case .polygon(let polygon):
            return polygon.contains(point) ? 0 : polygon.distanceToBoundary(from: point)
        }
    }

    static func text(_ point: Point2D) -> String {
        "(\(DatasetCSV.number((point.x * 1000).rounded() / 1000)), \(DatasetCSV.number((point.y * 1000).rounded() / 1000)))"
    }

    static func metres(_ value: Double) -> String {
        "\(DatasetCSV.number((value * 10).rounded() / 10)) m"
    }
}
