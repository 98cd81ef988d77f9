import Foundation

/// The CSV files of the shared dataset layout (`nodes.csv`, `sightings.csv`, `truth.csv`), both ways.
///
/// See docs/FORMATS.md. Readers keep good rows and report bad ones in ``Parsed/problems``.
public enum DatasetCSV {
    /// The header row of `nodes.csv`.
    public static let nodesHeader = "id,x,y,z,floor"
    /// The header row of `sightings.csv` (a `tx` column may follow).
    public static let sightingsHeader = "t,device,node,rssi"
    /// The header row of `truth.csv`.
    public static let truthHeader = "t,device,x,y,z,floor"

    /// Reads `nodes.csv`: `id,x,y,z,floor`; `z` empty means unknown (0 is used), `floor` empty means one floor.
    public static func parseNodes(_ text: String, file: String = "nodes.csv") throws -> Parsed<Node> {
        var seen = Set<String>()
        return try CSVTable.parse(text, file: file, required: ["id", "x", "y"]) { row in
            let id = try row.string("id")
            guard seen.insert(id).inserted else { throw row.error("node id '\(id)' is used twice") }
            return Node(
                id: id,
                position: Point3D(
                    x: try row.double("x"), y: try row.double("y"), z: try row.optionalDouble("z") ?? 0),
                floor: try row.optionalInt("floor"))
        }
    }

    /// Reads `sightings.csv`: `t,device,node,rssi`, and an optional `tx` column (dBm at 1 m).
    public static func parseSightings(_ text: String, file: String = "sightings.csv") throws -> Parsed<Sighting> {
        try CSVTable.parse(text, file: file, required: ["t", "device", "node", "rssi"]) { row in
            let node = row.text("node")
            guard !node.isEmpty else { throw row.error("node is empty") }
            return Sighting(
                time: try row.double("t"), device: try row.string("device"), source: SightingSource(field: node),
                rssi: try row.double("rssi"), txPower: try row.optionalDouble("tx"))
        }
    }

    /// Reads `truth.csv`: `t,device,x,y,z,floor`.
    public static func parseTruth(_ text: String, file: String = "truth.csv") throws -> Parsed<TruthPoint> {
        try CSVTable.parse(text, file: file, required: ["t", "device", "x", "y"]) { row in
            TruthPoint(
                time: try row.double("t"), device: try row.string("device"),
                point: Point2D(x: try row.double("x"), y: try row.double("y")),
                z: try row.optionalDouble("z"), floor: try row.optionalInt("floor"))
        }
    }

    /// Writes `nodes.csv`.
    public static func nodesText(_ nodes: [Node]) -> String {
        var text = nodesHeader + "\n"
        for node in nodes {
            text += "\(node.id),\(number(node.position.x)),\(number(node.position.y)),\(number(node.position.z)),"
            text += "\(node.floor.map(String.init) ?? "")\n"
        }
        return text
    }

    /// Writes `sightings.csv`.
    ///
    /// - Parameter withTx: whether to write the `tx` column; by default, when any sighting carries tx power.
    ///   (A file written in batches passes the same value for every batch, so that all rows have the same fields.)
    public static func sightingsText(_ sightings: [Sighting], withTx: Bool? = nil) -> String {
        let withTx = withTx ?? sightings.contains { $0.txPower != nil }
        var text = sightingsHeader + (withTx ? ",tx\n" : "\n")
        for sighting in sightings {
            text += "\(number(sighting.time)),\(sighting.device),\(sighting.source.text),\(number(sighting.rssi))"
            if withTx { text += "," + (sighting.txPower.map(number) ?? "") }
            text += "\n"
        }
        return text
    }

    /// Writes `truth.csv`.
    public static func truthText(_ truth: [TruthPoint]) -> String {
        var text = truthHeader + "\n"
        for row in truth {
            text += "\(number(row.time)),\(row.device),\(number(row.point.x)),\(number(row.point.y)),"
            text += "\(row.z.map(number) ?? ""),\(row.floor.map(String.init) ?? "")\n"
        }
        return text
    }

    /// The shortest text that reads back as the same `Double` (`12` rather than `12.0`).
    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
