/// Draws the cumulative distribution of horizontal errors of several methods in one chart, as SVG.
///
/// The x axis is the error in metres; the y axis is the fraction of all truth rows (misses included)
/// located within that error, so a method with misses never reaches 1. Each method is one coloured
/// line, named in the legend with its median.
public struct ErrorCDFPlot: Sendable {
    /// The chart's title, for example the dataset name.
    public var title: String
    /// The methods to draw, in legend order.
    public var scores: [MethodScore]

    /// A chart of `scores` under `title`.
    public init(title: String, scores: [MethodScore]) {
        self.title = title
        self.scores = scores
    }

    /// Line colours, cycled.
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]

    /// The chart as a standalone SVG document.
    public func svg() -> String {
        let width = 800.0
        let height = 480.0
        let left = 70.0
        let right = 240.0
        let top = 50.0
        let bottom = 60.0
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        var svg = SVGWriter(width: width, height: height)
        svg.text(title, x: left + plotWidth / 2, y: 28, size: 16, anchor: .middle, bold: true)

        let axis = Self.niceAxis(maximum: max(Self.range(of: scores), 0.1))
        let xScale = { (meters: Double) in left + min(meters, axis.maximum) / axis.maximum * plotWidth }
        let yScale = { (fraction: Double) in top + (1 - fraction) * plotHeight }

        // Grid, ticks and tick labels.
        let tickCount = Int((axis.maximum / axis.step).rounded())
        for index in 0...tickCount {
            let tick = Double(index) * axis.step
            let x = xScale(tick)
            svg.line(x1: x, y1: top, x2: x, y2: top + plotHeight, stroke: "#e5e5e5")
            svg.line(x1: x, y1: top + plotHeight, x2: x, y2: top + plotHeight + 5, stroke: "#222")
            svg.text(Self.label(tick), x: x, y: top + plotHeight + 20, size: 12, anchor: .middle)
        }
        for step in 0...10 {
            let fraction = Double(step) / 10
            let y = yScale(fraction)
            svg.line(x1: left, y1: y, x2: left + plotWidth, y2: y, stroke: "#e5e5e5")
            svg.line(x1: left - 5, y1: y, x2: left, y2: y, stroke: "#222")
            if step % 2 == 0 {
                svg.text(Self.label(fraction), x: left - 9, y: y + 4, size: 12, anchor: .end)
            }
        }
        svg.line(x1: left, y1: top + plotHeight, x2: left + plotWidth, y2: top + plotHeight, stroke: "#222")
        svg.line(x1: left, y1: top, x2: left, y2: top + plotHeight, stroke: "#222")
        svg.text("horizontal error (m)", x: left + plotWidth / 2, y: height - 15, size: 13, anchor: .middle)
        svg.text(
            "fraction of truth rows within error", x: 20, y: top + plotHeight / 2, size: 13, anchor: .middle,
            rotation: -90)

        // One step curve per method.
        for (index, score) in scores.enumerated() {
            let colour = Self.palette[index % Self.palette.count]
            let errors = score.errors.filter(\.isFinite).sorted()
            let total = Double(score.errors.count + score.misses)
            var points: [(x: Double, y: Double)] = [(xScale(0), yScale(0))]
            if total > 0 {
                for (rank, error) in errors.enumerated() where error <= axis.maximum {
                    points.append((xScale(error), yScale(Double(rank) / total)))
                    points.append((xScale(error), yScale(Double(rank + 1) / total)))
                }
                let reached = Double(errors.filter { $0 <= axis.maximum }.count) / total
                points.append((xScale(axis.maximum), yScale(reached)))
            }
            svg.polyline(Self.thinned(points), stroke: colour)

            let legendY = top + 10 + Double(index) * 36
            let legendX = left + plotWidth + 20
            svg.line(x1: legendX, y1: legendY, x2: legendX + 24, y2: legendY, stroke: colour, width: 3)
            svg.text(score.method, x: legendX + 30, y: legendY + 4, size: 12)
            let summary = score.summary
            var detail = summary.medianMeters.map { "median \(ScoreReport.fixed($0, 2)) m" } ?? "no fixes"
            if summary.misses > 0 { detail += ", \(summary.misses) missed" }
            svg.text(detail, x: legendX + 30, y: legendY + 19, size: 11)
        }
        return svg.document
    }

    /// The largest error the x axis must show: the largest of the methods' 95th percentiles, leaving out
    /// methods whose 95th percentile is over 3 times the median one (so that one wild method does not squash
    /// the others' curves; its curve runs off the right edge).
    static func range(of scores: [MethodScore]) -> Double {
        let p95s = scores.compactMap { score in
            ErrorSummary.percentile(sorted: score.errors.filter(\.isFinite).sorted(), fraction: 0.95)
        }.sorted()
        guard let median = ErrorSummary.percentile(sorted: p95s, fraction: 0.5) else { return 1 }
        return p95s.last { $0 <= 3 * median } ?? median
    }

    /// A round axis maximum at or above `maximum` and a tick step (1, 2 or 5 times a power of ten) giving
    /// at most 8 steps.
    static func niceAxis(maximum: Double) -> (maximum: Double, step: Double) {
        var magnitude = 1.0
        while magnitude * 10 <= maximum { magnitude *= 10 }
        while magnitude > maximum { magnitude /= 10 }
        for multiple in [0.1, 0.2, 0.5, 1, 2] {
            let step = magnitude * multiple
            // The small allowance keeps 0.3 / 0.05 at 6 steps despite rounding.
            let steps = (maximum / step - 1e-9).rounded(.up)
            if steps <= 8 { return (steps * step, step) }
        }
        return (magnitude * 10, magnitude * 2)
    }

    /// Drops points that change nothing visible (closer than 0.3 units to the previous kept point).
    static func thinned(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        var kept: [(x: Double, y: Double)] = []
        for (index, point) in points.enumerated() {
            if let last = kept.last, index < points.count - 1, abs(point.x - last.x) < 0.3, abs(point.y - last.y) < 0.3
            {
                continue
            }
            kept.append(point)
        }
        return kept
    }

    static func label(_ value: Double) -> String {
        SVGWriter.number(value)
    }
}
