import Foundation
import IndoorModel

/// How much of a venue a survey was taken in: the share of the nodes that have a surveyed position near them.
///
/// A map learned from a survey is right where the survey was taken and a guess elsewhere. A node counts as covered
/// when a truth row of the survey lies within ``radiusMeters`` of it horizontally, on its floor (a row or a node
/// without a floor matches every floor); the radius is the nodes' typical spacing, the median over the nodes of the
/// horizontal distance to the nearest other node on the same floor (at least 1 m; 3 m with fewer than two nodes).
/// A survey that covers less than ``minimumShare`` of the nodes is one to walk further: the server says so, and `auto`
/// locates as without it (docs/notes/auto-survey-coverage.md measured surveys of 40–150 rows near 17–80% of the nodes
/// making `auto` worse than no survey on 12 of 15 development sets, by up to 7 m; ``DefaultTuning/surveyCoverage``
/// sets another share, 0 learns from every survey).
public struct SurveyCoverage: Hashable, Sendable {
    /// The nodes with a surveyed position within ``radiusMeters``.
    public var coveredNodes: Int
    /// The venue's nodes.
    public var nodeCount: Int
    /// How near a surveyed position must be for a node to be covered, metres.
    public var radiusMeters: Double
    /// The share of the nodes a survey should cover for `auto` to learn from it, 0…1.
    public var minimumShare: Double

    /// The default ``minimumShare``: 0.9, midway between the most a losing small survey covered (0.8) and what
    /// every full survey covered (1).
    public static let standardMinimumShare = 0.9

    /// The coverage of `nodes` by `survey`'s truth rows; `minimumShare` outside 0…1 (or not finite) is the standard.
    public init(nodes: [Node], survey: Recording, minimumShare: Double = SurveyCoverage.standardMinimumShare) {
        self.minimumShare =
            minimumShare.isFinite && minimumShare >= 0 && minimumShare <= 1 ? minimumShare : Self.standardMinimumShare
        nodeCount = nodes.count
        let radius = Self.spacing(of: nodes)
        radiusMeters = radius
        let cells = Cells(points: survey.truth, size: radius)
        coveredNodes = nodes.filter { cells.hasPoint(near: $0, within: radius) }.count
    }

    /// The share of the nodes covered, 0…1 (1 for a venue without nodes).
    public var share: Double { nodeCount == 0 ? 1 : Double(coveredNodes) / Double(nodeCount) }

    /// Whether the survey covers at least ``minimumShare`` of the nodes.
    public var isEnough: Bool { share >= minimumShare }

    /// The coverage in a sentence for reports, saying what `auto` does with the survey.
    public var summary: String {
        let counted = String(
            format: "the survey passes within %.1f m (the nodes' spacing) of %d of %d nodes", radiusMeters,
            coveredNodes, nodeCount)
        if isEnough { return counted }
        return counted
            + String(
                format: "; auto needs %.0f%% of them and locates as without a survey (record the rest of the venue)",
                minimumShare * 100)
    }

    /// The median over `nodes` of the horizontal distance to the nearest other node on the same floor, at least 1 m;
    /// 3 m when no node has another on its floor.
    static func spacing(of nodes: [Node]) -> Double {
        var nearest: [Double] = []
        for (index, node) in nodes.enumerated() {
            var best = Double.infinity
            for (other, neighbour) in nodes.enumerated()
            where other != index && Self.sameFloor(node.floor, neighbour.floor) {
                best = min(best, node.position.horizontal.distance(to: neighbour.position.horizontal))
            }
            if best.isFinite { nearest.append(best) }
        }
        guard !nearest.isEmpty else { return 3 }
        nearest.sort()
        let middle = nearest.count / 2
        let median = nearest.count % 2 == 1 ? nearest[middle] : (nearest[middle - 1] + nearest[middle]) / 2
        return max(1, median)
    }

    /// Whether two floors match: equal, or either unknown.
    static func sameFloor(_ a: Int?, _ b: Int?) -> Bool { a == nil || b == nil || a == b }

    /// The survey's distinct positions bucketed in square cells of one radius, so a node looks at nine cells.
    private struct Cells {
        struct Key: Hashable {
            var x: Int
            var y: Int
        }
        let size: Double
        var cells: [Key: [(point: Point2D, floor: Int?)]] = [:]

        init(points: [TruthPoint], size: Double) {
            self.size = size
            var seen = Set<[Double]>()
            for truth in points where truth.point.x.isFinite && truth.point.y.isFinite {
                // Positions a centimetre apart are one: a survey holds still for many rows.
                let rounded = [
                    (truth.point.x * 100).rounded(), (truth.point.y * 100).rounded(), Double(truth.floor ?? Int.min),
                ]
                guard seen.insert(rounded).inserted, let key = key(of: truth.point) else { continue }
                cells[key, default: []].append((truth.point, truth.floor))
            }
        }

        /// The cell holding `point`; `nil` for a point too far out to index.
        func key(of point: Point2D) -> Key? {
            let x = (point.x / size).rounded(.down)
            let y = (point.y / size).rounded(.down)
            guard abs(x) < 1e9, abs(y) < 1e9 else { return nil }
            return Key(x: Int(x), y: Int(y))
        }

        func hasPoint(near node: Node, within radius: Double) -> Bool {
            let centre = node.position.horizontal
            guard let key = key(of: centre) else { return false }
            for dx in -1...1 {
                for dy in -1...1 {
                    for entry in cells[Key(x: key.x + dx, y: key.y + dy)] ?? []
                    where SurveyCoverage.sameFloor(node.floor, entry.floor)
                        && entry.point.distance(to: centre) <= radius
                    {
                        return true
                    }
                }
            }
            return false
        }
    }
}
