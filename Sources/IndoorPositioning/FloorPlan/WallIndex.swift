import IndoorModel

/// The walls of one floor in a uniform grid of square cells, so that a short step is tested only against the walls
/// in the cells it passes through, not against every wall of the floor.
///
/// A step crosses a wall when it starts strictly on one side of the wall's line and ends on the wall or strictly on
/// the other side, at a point of the wall (its ends included: a door jamb is solid). A step along a wall's line,
/// or one starting on a wall, crosses nothing; a door is a gap between two walls.
struct WallIndex: Hashable, Sendable {
    /// The walls, metres in the venue's local frame.
    let walls: [Segment]
    /// The lower corner of the grid, metres.
    private let origin: Point2D
    /// The side of a cell, metres.
    private let cellSize: Double
    private let columns: Int
    private let rows: Int
    /// Cell `c`'s walls are `cellWalls[cellStart[c]..<cellStart[c + 1]]` (cells row by row).
    private let cellStart: [Int]
    private let cellWalls: [Int]

    /// The most cells an index has; a larger floor gets larger cells.
    static let maximumCells = 250_000

    /// An index of `walls` (metres, local frame) in cells of about `cellSize` metres (default 2).
    init(walls: [Segment], cellSize: Double = 2) {
        let usable = walls.filter {
            $0.start.x.isFinite && $0.start.y.isFinite && $0.end.x.isFinite && $0.end.y.isFinite
        }
        self.walls = usable
        let low = Point2D(
            x: usable.map { min($0.start.x, $0.end.x) }.min() ?? 0,
            y: usable.map { min($0.start.y, $0.end.y) }.min() ?? 0)
        let high = Point2D(
            x: usable.map { max($0.start.x, $0.end.x) }.max() ?? 0,
            y: usable.map { max($0.start.y, $0.end.y) }.max() ?? 0)
        var size = cellSize.isFinite && cellSize > 0 ? cellSize : 2
        let area = max(high.x - low.x, size) * max(high.y - low.y, size)
        if area / (size * size) > Double(Self.maximumCells) { size = (area / Double(Self.maximumCells)).squareRoot() }
        origin = low
        self.cellSize = size
        columns = Int((high.x - low.x) / size) + 1
        rows = Int((high.y - low.y) / size) + 1
        var lists = [[Int]](repeating: [], count: columns * rows)
        for (index, wall) in usable.enumerated() {
            let (c0, r0) = Self.cell(of: wall.start, origin: low, size: size, columns: columns, rows: rows)
            let (c1, r1) = Self.cell(of: wall.end, origin: low, size: size, columns: columns, rows: rows)
            for row in min(r0, r1)...max(r0, r1) {
                for column in min(c0, c1)...max(c0, c1) { lists[row * columns + column].append(index) }
            }
        }
        var start = [0]
        start.reserveCapacity(lists.count + 1)
        for list in lists { start.append(start[start.count - 1] + list.count) }
        cellStart = start
        cellWalls = lists.flatMap { $0 }
    }

    /// The cell (column, row) holding `point`, clamped to the grid.
    private static func cell(of point: Point2D, origin: Point2D, size: Double, columns: Int, rows: Int) -> (Int, Int) {
        let column = min(max((point.x - origin.x) / size, 0), Double(columns - 1))
        let row = min(max((point.y - origin.y) / size, 0), Double(rows - 1))
        return (Int(column), Int(row))
    }

    /// The first wall the step from `start` to `end` (metres) crosses: its index in ``walls`` and how far along
    /// the step (0…1) it is met; `nil` when the step crosses none.
    func firstCrossing(from start: Point2D, to end: Point2D) -> (wall: Int, fraction: Double)? {
        guard !walls.isEmpty else { return nil }
        // Outside the walls' box (with a margin) on the same side: nothing to cross.
        let maximumX = origin.x + Double(columns) * cellSize
        let maximumY = origin.y + Double(rows) * cellSize
        if (start.x < origin.x && end.x < origin.x) || (start.x > maximumX && end.x > maximumX)
            || (start.y < origin.y && end.y < origin.y) || (start.y > maximumY && end.y > maximumY)
        {
            return nil
        }
        // The step in pieces no longer than a cell; each piece's cells (at most 2 × 2) are searched.
        let length = start.distance(to: end)
        let pieces = max(1, Int((length / cellSize).rounded(.up)))
        var best: (wall: Int, fraction: Double)?
        var previous = start
        for piece in 1...pieces {
            let t = Double(piece) / Double(pieces)
            let next =
                piece == pieces ? end : Point2D(x: start.x + t * (end.x - start.x), y: start.y + t * (end.y - start.y))
            let (c0, r0) = Self.cell(of: previous, origin: origin, size: cellSize, columns: columns, rows: rows)
            let (c1, r1) = Self.cell(of: next, origin: origin, size: cellSize, columns: columns, rows: rows)
            for row in min(r0, r1)...max(r0, r1) {
                for column in min(c0, c1)...max(c0, c1) {
                    let cell = row * columns + column
                    for slot in cellStart[cell]..<cellStart[cell + 1] {
                        let wall = cellWalls[slot]
                        guard let fraction = Self.crossing(from: start, to: end, wall: walls[wall]) else { continue }
                        if best.map({ fraction < $0.fraction || (fraction == $0.fraction && wall < $0.wall) }) ?? true {
                            best = (wall, fraction)
                        }
                    }
                }
            }
            // Crossings are met in order along the step: one before this piece's end cannot be beaten later.
            if let best, best.fraction <= t { return best }
            previous = next
        }
        return best
    }

    /// How far along the step from `p` to `q` (0…1) it crosses `wall`, or `nil` when it does not (see the type).
    static func crossing(from p: Point2D, to q: Point2D, wall: Segment) -> Double? {
        let a = wall.start
        let b = wall.end
        let sideP = orientation(a, b, p)
        guard sideP != 0 else { return nil }
        let sideQ = orientation(a, b, q)
        if (sideP > 0 && sideQ > 0) || (sideP < 0 && sideQ < 0) { return nil }
        let sideA = orientation(p, q, a)
        let sideB = orientation(p, q, b)
        if (sideA > 0 && sideB > 0) || (sideA < 0 && sideB < 0) { return nil }
        return sideP / (sideP - sideQ)
    }

    /// The sign of (b − a) × (c − a): > 0 when c is left of a→b, < 0 right, 0 on the line.
    private static func orientation(_ a: Point2D, _ b: Point2D, _ c: Point2D) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }
}
