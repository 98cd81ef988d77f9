import Foundation

/// The CSV files of the shared dataset layout (`nodes.csv`, `sightings.csv`, `truth.csv`), both ways.
///
/// See docs/FORMATS.md. Readers keep good rows and report bad ones in ``Parsed/problems``.
public enum DatasetCSV {
    /// The header row of `nodes.csv`.
    static let nodesHeader = "id,x,y,z,floor"
    /// The header row of `sightings.csv` (a `tx` column may follow).
    public static let sightingsHeader = "t,device,node,rssi"
    /// The header row of `truth.csv`.
    public static let truthHeader = "t,device,x,y,z,floor"

    /// Reads `nodes.csv`: `id,x,y,z,floor`; `z` empty means unknown (0 is used), `floor` empty means one floor.
    ///
    /// A row is refused (a problem naming its line) when its id repeats an earlier row's, a coordinate is not
    /// a finite number or is more than ``LocalFrame/limitMeters`` (100 km) from the origin, or `floor` is not an
    /// integer.
    /// - Throws: ``FormatError`` when the file has no header row or the header lacks a column, or repeats one.
    package static func parseNodes(_ text: String, file: String = "nodes.csv") throws -> Parsed<Node> {
        try nodesLayout.parse(text, file: file)
    }

    /// Reads `sightings.csv`: `t,device,node,rssi`, and an optional `tx` column (dBm at 1 m).
    ///
    /// A row is refused (a problem naming its line; the other rows are kept) when a field is missing or not a
    /// number, when `rssi` is outside ``Sighting/physicalRSSIRange`` (−130…20 dBm), or when `tx` is outside
    /// ``Sighting/advertisedTxPowerRange`` (−128…127 dBm): the rows ``Sighting/problem`` refuses.
    /// - Throws: ``FormatError`` when the file has no header row or the header lacks a column, or repeats one.
    public static func parseSightings(_ text: String, file: String = "sightings.csv") throws -> Parsed<Sighting> {
        try sightingsLayout.parse(text, file: file)
    }

    /// Reads `truth.csv`: `t,device,x,y,z,floor`.
    public static func parseTruth(_ text: String, file: String = "truth.csv") throws -> Parsed<TruthPoint> {
        try truthLayout.parse(text, file: file)
    }

    /// The layout of `nodes.csv` (see ``parseNodes(_:file:)``): a reader remembers the ids of one file's rows.
    package static let nodesLayout = CSVLayout<Node>(header: nodesHeader, required: ["id", "x", "y"]) {
        var seen = Set<String>()
        return { row in
            let id = try row.string("id")
            guard seen.insert(id).inserted else { throw row.error("node id '\(id)' is used twice") }
            return Node(
                id: id,
                position: Point3D(
                    x: try coordinate(row, "x"), y: try coordinate(row, "y"),
                    z: try row.optionalDouble("z").map { _ in try coordinate(row, "z") } ?? 0),
                floor: try row.optionalInt("floor"))
        }
    }

    /// The layout of `sightings.csv` (see ``parseSightings(_:file:)``).
    package static let sightingsLayout = CSVLayout<Sighting>(
        header: sightingsHeader, required: ["t", "device", "node", "rssi"], row: sighting)

    /// The layout of `truth.csv` (see ``parseTruth(_:file:)``).
    package static let truthLayout = CSVLayout<TruthPoint>(
        header: truthHeader, required: ["t", "device", "x", "y"], row: truthPoint)

    /// A required coordinate in metres, finite and within ``LocalFrame/limitMeters`` of the origin.
    private static func coordinate(_ row: CSVRow, _ column: String) throws -> Double {
        let value = try row.double(column)
        if let problem = LocalFrame.problem(meters: value) {
            throw row.error("\(column) '\(row.text(column))' \(problem)")
        }
        return value
    }

    /// One row of `sightings.csv`.
    @Sendable private static func sighting(_ row: CSVRow) throws -> Sighting {
        let node = row.text("node")
        guard !node.isEmpty else { throw row.error("node is empty") }
        let time = try row.double("t")
        let device = try row.string("device")
        let rssi = try row.double("rssi")
        if let problem = Sighting.rangeProblem(
            rssi, field: "rssi", text: row.text("rssi"), range: Sighting.physicalRSSIRange,
            rangeName: "the physical range")
        {
            throw row.error(problem)
        }
        let txPower = try row.optionalDouble("tx")
        if let txPower,
            let problem = Sighting.rangeProblem(
                txPower, field: "tx", text: row.text("tx"), range: Sighting.advertisedTxPowerRange,
                rangeName: "the advertised power range")
        {
            throw row.error(problem)
        }
        return Sighting(time: time, device: device, source: SightingSource(field: node), rssi: rssi, txPower: txPower)
    }

    /// One row of `truth.csv`.
    @Sendable private static func truthPoint(_ row: CSVRow) throws -> TruthPoint {
        TruthPoint(
            time: try row.double("t"), device: try row.string("device"),
            point: Point2D(x: try row.double("x"), y: try row.double("y")),
            z: try row.optionalDouble("z"), floor: try row.optionalInt("floor"))
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
