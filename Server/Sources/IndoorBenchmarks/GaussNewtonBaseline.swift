import CGaussNewton
import IndoorPositioning

/// The reference `indoor-bench positioning` states the `nonlinear` solver's speed against: a plain Gauss–Newton in C
/// (`indoor_gauss_newton`, Sources/CGaussNewton) on the same readings, measured in the same run, so the ratio holds on
/// any machine where the absolute rates follow the core.
///
/// Every device's readings are laid out once as five planes of one flat array (node x, y, z in metres, range in metres
/// and its variance in m²); every fix then reads them as the Swift solver reads its `NodeReading` list, takes the
/// logarithms and the weights, starts at the 1/d²-weighted centroid and iterates at most as often as
/// `NonlinearLeastSquares` does by default, with its tolerance.
struct GaussNewtonBaseline {
    /// Per device: where its readings start in each plane, and how many there are.
    private let spans: [(start: Int, count: Int)]
    /// The planes x, y, z, distance and variance, each ``readingCount`` long, one after the other.
    private let planes: [Double]
    /// The number of readings of all devices (the length of each plane).
    private let readingCount: Int
    /// The device's height, metres (the workload's).
    let deviceHeight: Double
    /// `NonlinearLeastSquares`'s defaults: the most steps per fix, and the step (m) below which a fit stops.
    private let settings = NonlinearLeastSquares()

    /// The readings of every device, for a device at `deviceHeight` metres.
    init(readings: [[NodeReading]], deviceHeight: Double) {
        var spans: [(start: Int, count: Int)] = []
        var all: [NodeReading] = []
        for list in readings {
            spans.append((all.count, list.count))
            all += list
        }
        self.spans = spans
        readingCount = all.count
        planes =
            all.map(\.node.position.x) + all.map(\.node.position.y) + all.map(\.node.position.z)
            + all.map(\.distance) + all.map(\.distanceVariance)
        self.deviceHeight = deviceHeight
    }

    /// The number of devices.
    var count: Int { spans.count }

    /// Each device's position (x, y in metres), `nil` where the C solver gave none.
    func fixes() -> [(x: Double, y: Double)?] {
        var result: [(x: Double, y: Double)?] = []
        result.reserveCapacity(count)
        solveAll { solved, px, py in result.append(solved ? (px, py) : nil) }
        return result
    }

    /// Fixes per second, solving every device in turn for at least `seconds`.
    func rate(seconds: Double) -> Double {
        BenchStopwatch.rate(seconds: seconds) {
            var checksum = 0.0
            solveAll { solved, px, _ in if solved { checksum += px } }
            return (count, checksum)
        }
    }

    /// Solves each device in order and hands `body` whether it was solved and the position (m).
    private func solveAll(_ body: (Bool, Double, Double) -> Void) {
        let iterations = Int32(clamping: settings.maximumIterations)
        planes.withUnsafeBufferPointer { planes in
            guard let base = planes.baseAddress else { return }
            let n = readingCount
            for span in spans {
                var px = 0.0
                var py = 0.0
                let first = base + span.start
                let solved = indoor_gauss_newton(
                    first, first + n, first + 2 * n, first + 3 * n, first + 4 * n, Int32(clamping: span.count),
                    deviceHeight, iterations, settings.tolerance, &px, &py)
                body(solved == 1, px, py)
            }
        }
    }
}
