import Foundation
import IndoorModel

/// What each node's signal should look like at every point of a grid over the venue: the mean RSSI (dBm), its
/// spread (dB) and the chance the node is heard at all.
///
/// Two sources: the path-loss model of a ``Calibration`` alone (``pathLoss(nodes:calibration:grid:detection:)``),
/// or that model corrected by a survey (``surveyed(nodes:fingerprints:calibration:grid:configuration:)``): the
/// survey's residuals about the path-loss model are interpolated over the grid by a Gaussian kernel, shrunk towards
/// zero where the survey is thin, and the spread grows with the distance to the nearest surveyed point (as a
/// Gaussian process's would). ``PosteriorGrid`` uses it as the likelihood of each grid point.
///
/// Tables are cell-major: the entry of cell `c` and node `j` is at `c × nodeCount + j`.
public struct RadioMap: Hashable, Sendable {
    /// The ids of the mapped nodes, in column order.
    public let nodeIDs: [String]
    /// The grid points, metres in the venue frame (`z` the device height assumed).
    public let cells: [Point3D]
    /// The floor of each grid point (`nil` in a venue without floors).
    public let floors: [Int?]
    /// The grid spacing, metres.
    public let spacing: Double
    /// Mean RSSI of each (cell, node), dBm.
    public let mean: [Double]
    /// 1 / variance of RSSI of each (cell, node), 1/dB².
    public let inverseVariance: [Double]
    /// ½ ln(variance) of each (cell, node), times ``logVarianceWeight``: the likelihood's normalising term, which
    /// makes a cell where a node's level is less certain less likely for the same fit.
    public let halfLogVariance: [Double]
    /// The weight of the normalising term ½ ln(variance) in the likelihood: 1 is the Student-t's own; above 1, cells
    /// whose levels are less certain (in a surveyed map, those the survey covers thinly) weigh less for the same fit.
    public let logVarianceWeight: Double
    /// ln P(node not heard) at each (cell, node).
    public let missLog: [Double]
    /// Σ over nodes of ``missLog`` per cell: the log chance that nothing is heard there.
    public let missSum: [Double]
    let nodeIndex: [String: Int]
    /// Where the grid lies: ``cells`` are its points floor by floor (in ``Grid/floors`` order), row by row (south to
    /// north), column by column (west to east).
    public let grid: Grid

    /// The number of mapped nodes.
    public var nodeCount: Int { nodeIDs.count }

    /// The column of node `id`, or `nil` when the map does not know it.
    public func column(of id: String) -> Int? { nodeIndex[id] }

    /// The map columns of the nodes `readings` name, with their RSSI (dBm), in the readings' order: readings of nodes
    /// the map does not know, with a non-finite RSSI, or of a node already taken are left out.
    func heard(_ readings: [NodeReading]) -> (columns: [Int], values: [Double]) {
        var columns: [Int] = []
        var values: [Double] = []
        columns.reserveCapacity(readings.count)
        values.reserveCapacity(readings.count)
        for reading in readings {
            guard let column = column(of: reading.node.id), reading.rssi.isFinite, !columns.contains(column)
            else { continue }
            columns.append(column)
            values.append(reading.rssi)
        }
        return (columns, values)
    }

    /// A map from its tables (each `cells.count × nodeIDs.count`, cell-major), its normalising term weighted by
    /// `logVarianceWeight` (finite, 0 or more).
    init(
        nodeIDs: [String], grid: Grid, mean: [Double], variance: [Double], heardProbability: [Double],
        logVarianceWeight: Double = 1
    ) {
        let (cells, floors) = grid.points()
        self.nodeIDs = nodeIDs
        self.grid = grid
        self.cells = cells
        self.floors = floors
        self.spacing = grid.spacing
        self.mean = mean
        self.inverseVariance = variance.map { 1 / $0 }
        self.logVarianceWeight = logVarianceWeight
        self.halfLogVariance = variance.map { logVarianceWeight * 0.5 * log($0) }
        let missLog = heardProbability.map { log(1 - min(max($0, 0.01), 0.95)) }
        self.missLog = missLog
        let n = nodeIDs.count
        self.missSum = (0..<cells.count).map { cell in
            var total = 0.0
            for j in 0..<n { total += missLog[cell * n + j] }
            return total
        }
        var index: [String: Int] = [:]
        for (column, id) in nodeIDs.enumerated() { index[id] = column }
        self.nodeIndex = index
    }
}

extension RadioMap {
    /// Where the grid lies: a horizontal box, the floors and the device height.
    public struct Grid: Hashable, Sendable {
        /// Lower corner, metres.
        public var minimum: Point2D
        /// Upper corner, metres.
        public var maximum: Point2D
        /// Distance between grid points, metres.
        public var spacing: Double
        /// The floors with a grid (`[nil]` in a venue without floors).
        public var floors: [Int?]
        /// The height of the located device, metres in the venue frame (`nil`: ranges are horizontal).
        public var height: Double?

        /// The box around `nodes` and `extra` points, widened by `margin` metres, at `spacing` metres or coarser so
        /// that each floor has at most `maximumCells` points.
        /// - Parameters:
        ///   - nodes: The fixed radios (their floors are the grid's floors).
        ///   - extra: Further points the grid must cover (surveyed positions).
        ///   - height: The device height (metres) or `nil`.
        ///   - spacing: The preferred spacing, metres (default 0.25).
        ///   - margin: Metres added on each side (default 1).
        ///   - maximumCells: Cap on grid points per floor (default 12 000).
        public static func around(
            nodes: [Node], extra: [Point2D] = [], height: Double?, spacing: Double = 0.25, margin: Double = 1,
            maximumCells: Int = 12_000
        ) -> Grid {
            let points =
                nodes.map(\.position.horizontal).filter { $0.x.isFinite && $0.y.isFinite }
                + extra.filter { $0.x.isFinite && $0.y.isFinite }
            var low = Point2D(x: points.map(\.x).min() ?? 0, y: points.map(\.y).min() ?? 0)
            var high = Point2D(x: points.map(\.x).max() ?? 0, y: points.map(\.y).max() ?? 0)
            low = Point2D(x: low.x - margin, y: low.y - margin)
            high = Point2D(x: high.x + margin, y: high.y + margin)
            var step = spacing.isFinite && spacing > 0 ? spacing : 0.25
            let area = (high.x - low.x) * (high.y - low.y)
            if area / (step * step) > Double(max(1, maximumCells)) {
                step = (area / Double(max(1, maximumCells))).squareRoot()
            }
            var floors = Array(Set(nodes.compactMap(\.floor))).sorted().map { Optional($0) }
            if floors.isEmpty { floors = [nil] }
            return Grid(
                minimum: low, maximum: high, spacing: step, floors: floors,
                height: height.flatMap { $0.isFinite ? $0 : nil })
        }

        /// Grid points per row (west to east).
        public var columns: Int { max(1, Int(((maximum.x - minimum.x) / spacing).rounded(.down)) + 1) }
        /// Rows of grid points per floor (south to north).
        public var rows: Int { max(1, Int(((maximum.y - minimum.y) / spacing).rounded(.down)) + 1) }

        /// The index (into ``RadioMap/cells``) of the grid point nearest to `point` on the floor at `floorIndex` (an
        /// index into ``floors``); a point outside the box takes the nearest point of the box's edge.
        @inline(__always)
        public func cell(nearest point: Point2D, floorIndex: Int) -> Int {
            let columns = self.columns
            let rows = self.rows
            let column = min(max(Int(((point.x - minimum.x) / spacing).rounded()), 0), columns - 1)
            let row = min(max(Int(((point.y - minimum.y) / spacing).rounded()), 0), rows - 1)
            return (floorIndex * rows + row) * columns + column
        }

        /// The grid points and their floors.
        func points() -> (cells: [Point3D], floors: [Int?]) {
            var cells: [Point3D] = []
            var cellFloors: [Int?] = []
            let columns = self.columns
            let rows = self.rows
            for floor in floors {
                for row in 0..<rows {
                    for column in 0..<columns {
                        cells.append(
                            Point3D(
                                x: minimum.x + Double(column) * spacing, y: minimum.y + Double(row) * spacing,
                                z: height ?? 0))
                        cellFloors.append(floor)
                    }
                }
            }
            return (cells, cellFloors)
        }
    }

    /// The RSSI level under which nodes go unheard: `level` dBm, with a soft edge of `spread` dB.
    public struct Detection: Hashable, Sendable {
        /// The RSSI at which a node is heard half the time, dBm.
        public var level: Double
        /// How gradually hearing fades around ``level``, dB.
        public var spread: Double

        /// Hearing fades around `level` dBm over `spread` dB.
        init(level: Double, spread: Double) {
            self.level = level.isFinite ? level : -100
            self.spread = spread.isFinite && spread > 0 ? spread : 6
        }

        /// No survey: −100 dBm, 6 dB (a node is taken as unheard only when the model puts it far below what phones hear).
        public static let generic = Detection(level: -100, spread: 6)

        /// The chance of hearing a node whose mean RSSI is `dBm`.
        func probability(dBm: Double) -> Double { 0.5 * erfc((level - dBm) / (spread * 2.0.squareRoot())) }
    }

    /// Attenuation assumed per floor between a node and a grid point on another floor, dB.
    static let floorLoss = 15.0

    /// The path-loss model's RSSI of `node` (with its calibration `calibration`) at `cell` on `floor`, dBm.
    static func pathLoss(node: Node, calibration: NodeCalibration, cell: Point3D, floor: Int?, height: Double?)
        -> Double
    {
        let dx = cell.x - node.position.x
        let dy = cell.y - node.position.y
        let dz = height.map { node.position.z - $0 } ?? 0
        let distance = max(0.5, (dx * dx + dy * dy + dz * dz).squareRoot())
        var rssi = calibration.rssiAtOneMeter - 10 * calibration.pathLossExponent * log10(distance)
        // In Double: floors are whatever a venue says, and Int.max − Int.min would trap.
        if let floor, let other = node.floor { rssi -= floorLoss * abs(Double(floor) - Double(other)) }
        return rssi
    }

    /// The path-loss model of `calibration` alone: mean from each node's calibration, spread the shadowing σ.
    /// - Parameters:
    ///   - nodes: The fixed radios (later duplicates of an id and non-finite positions are left out).
    ///   - calibration: Per-node path loss and the shadowing σ.
    ///   - grid: Where the grid lies.
    ///   - detection: When nodes go unheard.
    public static func pathLoss(nodes: [Node], calibration: Calibration, grid: Grid, detection: Detection = .generic)
        -> RadioMap
    {
        let nodes = usable(nodes)
        let (cells, floors) = grid.points()
        let n = nodes.count
        var mean = [Double](repeating: 0, count: cells.count * n)
        var heard = mean
        let sigma = calibration.shadowingSigma
        let calibrations = nodes.map { calibration.calibration(for: $0) }
        for (c, cell) in cells.enumerated() {
            for (j, node) in nodes.enumerated() {
                let m = pathLoss(
                    node: node, calibration: calibrations[j], cell: cell, floor: floors[c], height: grid.height)
                mean[c * n + j] = m
                heard[c * n + j] = detection.probability(dBm: m)
            }
        }
        return RadioMap(
            nodeIDs: nodes.map(\.id), grid: grid, mean: mean,
            variance: [Double](repeating: sigma * sigma, count: mean.count), heardProbability: heard)
    }

    /// Nodes with finite positions, first of each id.
    static func usable(_ nodes: [Node]) -> [Node] {
        var seen: Set<String> = []
        return nodes.filter {
            $0.position.x.isFinite && $0.position.y.isFinite && $0.position.z.isFinite && seen.insert($0.id).inserted
        }
    }
}
