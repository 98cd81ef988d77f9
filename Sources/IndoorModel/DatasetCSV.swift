import Foundation

/// The CSV files of the shared dataset layout (`nodes.csv`, `sightings.csv`, `truth.csv`), both ways.
///
/// See docs/FORMATS.md. Readers keep good rows and report bad ones in ``Parsed/problems``.
public enum DatasetCSV {
    public static let nodesHeader = "id,x,y,z,floor"
    public static let sightingsHeader = "t,device,node,rssi"
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

    /// Writes `sightings.csv`; a `tx` column is added when any sighting carries tx power.
    public static func sightingsText(_ sightings: [Sighting]) -> String {
        let withTx = sightings.contains { $0.txPower != nil }
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

/// Sightings as JSON Lines: one JSON object per line, `{"t":…,"device":…,"node":…,"rssi":…}`.
///
/// A sighting of a beacon identity uses `"beacon":"UUID/major/minor"` instead of `"node"`;
/// `"tx"` (dBm at 1 m) is optional.
public enum SightingsJSONLines {
    /// Reads JSON Lines, keeping good lines and reporting bad ones with their line numbers.
    public static func parse(_ text: String, file: String = "sightings.jsonl") -> Parsed<Sighting> {
        var result = Parsed<Sighting>()
        var lineNumber = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            guard !line.allSatisfy({ $0 == " " || $0 == "\r" }) else { continue }
            do {
                result.rows.append(
                    try JSONFormat.decode(Sighting.self, from: Data(line.utf8), file: file, line: lineNumber))
            } catch let error as FormatError {
                result.problems.append(error)
            } catch {
                result.problems.append(
                    FormatError(code: .invalidJSON, file: file, line: lineNumber, message: "\(error)"))
            }
        }
        return result
    }

    /// Writes one compact JSON object per sighting, keys sorted.
    public static func text(_ sightings: [Sighting]) throws -> String {
        let encoder = JSONFormat.encoder()
        var text = ""
        for sighting in sightings {
            text += String(decoding: try encoder.encode(sighting), as: UTF8.self) + "\n"
        }
        return text
    }
}
