import IndoorModel

/// Zone indices bucketed by a uniform grid over the bounding boxes of their shapes, so that a point or a
/// short move is tested only against the shapes near it. Floors are ignored (the caller filters them).
///
/// Queries answer a superset of the zones whose shapes can contain the point (or meet the move): every
/// box is padded slightly so that rounding never loses a candidate. The answer is sorted and unique.
struct ZoneGrid: Sendable {
    /// An axis-aligned box, metres.
    struct Box: Sendable {
        var minX, minY, maxX, maxY: Double

        init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
            self.minX = minX
            self.minY = minY
            self.maxX = maxX
            self.maxY = maxY
        }

        /// The box around `points`, padded by a tiny relative margin against rounding.
        init(around points: [Point2D]) {
            var box = Box(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
            for point in points {
                box.minX = min(box.minX, point.x)
                box.minY = min(box.minY, point.y)
                box.maxX = max(box.maxX, point.x)
                box.maxY = max(box.maxY, point.y)
            }
            let slack = 1e-9 * max(1, abs(box.minX), abs(box.minY), abs(box.maxX), abs(box.maxY))
            self.init(minX: box.minX - slack, minY: box.minY - slack, maxX: box.maxX + slack, maxY: box.maxY + slack)
        }

        func contains(_ point: Point2D) -> Bool {
            point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
        }

        func overlaps(_ other: Box) -> Bool {
            minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
        }
    }

    private struct Cell: Hashable, Sendable {
        var x: Int
        var y: Int
    }

    private struct Item: Sendable {
        var zone: Int
        var box: Box
    }

    /// Boxes covering more cells than this are kept in ``everywhere`` instead.
    private static let maximumCellsPerBox = 4096
    /// Cell indices beyond this magnitude are not bucketed (so that conversions to `Int` never trap).
    private static let maximumCellIndex = 1e9

    private let cellMeters: Double
    private var buckets: [Cell: [Item]] = [:]
    /// Items tested for every query: very large or non-finite boxes.
    private var everywhere: [Item] = []

    /// - Parameter boxes: One entry per shape: the zone it belongs to and its (padded) box.
    init(boxes: [(zone: Int, box: Box)]) {
        // Cells about the size of a typical shape: a point then meets a handful of boxes.
        let sides = boxes.map { max($0.box.maxX - $0.box.minX, $0.box.maxY - $0.box.minY) }
            .filter { $0.isFinite }.sorted()
        let typical = sides.isEmpty ? 10 : sides[sides.count / 2]
        cellMeters = min(max(typical, 1), 1000)
        for (zone, box) in boxes {
            let item = Item(zone: zone, box: box)
            guard let low = cell(x: box.minX, y: box.minY), let high = cell(x: box.maxX, y: box.maxY),
                (high.x - low.x + 1) * (high.y - low.y + 1) <= Self.maximumCellsPerBox
            else {
                everywhere.append(item)
                continue
            }
            for x in low.x...high.x {
                for y in low.y...high.y {
                    buckets[Cell(x: x, y: y), default: []].append(item)
                }
            }
        }
    }

    /// The zones with a box containing `point`, sorted, without repeats.
    func zones(containing point: Point2D) -> [Int] {
        var found: [Int] = []
        for item in everywhere where item.box.contains(point) { found.append(item.zone) }
        if let cell = cell(x: point.x, y: point.y), let items = buckets[cell] {
            for item in items where item.box.contains(point) { found.append(item.zone) }
        }
        return Self.sortedUnique(found)
    }

    /// The zones with a box meeting the box of the move from `start` to `end`, sorted, without repeats.
    func zones(meetingMoveFrom start: Point2D, to end: Point2D) -> [Int] {
        let move = Box(
            minX: min(start.x, end.x), minY: min(start.y, end.y), maxX: max(start.x, end.x), maxY: max(start.y, end.y))
        var found: [Int] = []
        for item in everywhere where item.box.overlaps(move) { found.append(item.zone) }
        guard !buckets.isEmpty else { return Self.sortedUnique(found) }
        if let low = cell(x: move.minX, y: move.minY), let high = cell(x: move.maxX, y: move.maxY),
            (high.x - low.x + 1) * (high.y - low.y + 1) <= buckets.count
        {
            for x in low.x...high.x {
                for y in low.y...high.y {
                    for item in buckets[Cell(x: x, y: y)] ?? [] where item.box.overlaps(move) {
                        found.append(item.zone)
                    }
                }
            }
        } else {
            // A long jump: cheaper to look at every bucket once.
            for items in buckets.values {
                for item in items where item.box.overlaps(move) { found.append(item.zone) }
            }
        }
        return Self.sortedUnique(found)
    }

    private func cell(x: Double, y: Double) -> Cell? {
        let cx = (x / cellMeters).rounded(.down)
        let cy = (y / cellMeters).rounded(.down)
        guard abs(cx) <= Self.maximumCellIndex, abs(cy) <= Self.maximumCellIndex else { return nil }
        return Cell(x: Int(cx), y: Int(cy))
    }

    private static func sortedUnique(_ zones: [Int]) -> [Int] {
        guard zones.count > 1 else { return zones }
        var result: [Int] = []
        result.reserveCapacity(zones.count)
        for zone in zones.sorted() where result.last != zone { result.append(zone) }
        return result
    }
}
