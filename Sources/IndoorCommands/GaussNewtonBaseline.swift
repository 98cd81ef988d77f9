import CGaussNewton
import IndoorPositioning

/// The reference `indoor bench positioning` states the `nonlinear` solver's speed against: a plain Gauss–Newton in C
/// (`indoor_gauss_newton`, Sources/CGaussNewton) on the same readings, measured in the same run, so the ratio holds on
/// any machine where the absolute rates follow the core.
///
/// Each device's readings are laid out once as flat arrays (node x, y, z in metres, range in metres and its variance
/// in m²); every fix then reads them as the Swift solver reads its `NodeReading` list, takes the logarithms and the
/// weights, starts at the 1/d²-weighted centroid and iterates at most `iterations` times.
struct GaussNewtonBaseline {
    /// Per device: where its readings start in the flat arrays, and how many there are.
    private let spans: [(start: Int, count: Int)]
    private let x: [Double]
    private let y: [Double]
    private let z: [Double]
    private let distance: [Double]
    private let variance: [Double]
    /// The device's height, metres (the workload's).
    let deviceHeight: Double
    /// The most Gauss–Newton steps per fix, and the step (m) below which a fit stops: `NonlinearLeastSquares`'s.
    let iterations: Int32 = 5
    let tolerance = 0.02

    /// The readings of every device, for a device at `deviceHeight` metres.
    init(readings: [[NodeReading]], deviceHeight: Double) {
        var spans: [(start: Int, count: Int)] = []
        var x: [Double] = []
        var y: [Double] = []
        var z: [Double] = []
        var distance: [Double] = []
        var variance: [Double] = []
        for list in readings {
            spans.append((x.count, list.count))
            for reading in list {
                x.append(reading.node.position.x)
                y.append(reading.node.position.y)
                z.append(reading.node.position.z)
                distance.append(reading.distance)
                variance.append(reading.distanceVariance)
            }
        }
        self.spans = spans
        self.x = x
        self.y = y
        self.z = z
        self.distance = distance
        self.variance = variance
        self.deviceHeight = deviceHeight
    }

    /// The number of devices.
    var count: Int { spans.count }

    /// Each device's position (x, y in metres), `nil` where the C solver gave none.
    func fixes() -> [(x: Double, y: Double)?] {
        var result: [(x: Double, y: Double)?] = []
        result.reserveCapacity(count)
        solveAll { _, solved, px, py in result.append(solved ? (px, py) : nil) }
        return result
    }

    /// Fixes per second, solving every device in turn for at least `seconds`.
    func rate(seconds: Double) -> Double {
        BenchStopwatch.rate(seconds: seconds) {
            var checksum = 0.0
            solveAll { _, solved, px, _ in if solved { checksum += px } }
            return (count, checksum)
        }
    }

    /// Solves each device in order and hands `body` its index, whether it was solved, and the position (m).
    private func solveAll(_ body: (Int, Bool, Double, Double) -> Void) {
        x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                z.withUnsafeBufferPointer { z in
                    distance.withUnsafeBufferPointer { distance in
                        variance.withUnsafeBufferPointer { variance in
                            for (index, span) in spans.enumerated() {
                                var px = 0.0
                                var py = 0.0
                                let solved = indoor_gauss_newton(
                                    x.baseAddress.map { $0 + span.start }, y.baseAddress.map { $0 + span.start },
                                    z.baseAddress.map { $0 + span.start },
                                    distance.baseAddress.map { $0 + span.start },
                                    variance.baseAddress.map { $0 + span.start }, Int32(clamping: span.count),
                                    deviceHeight, iterations, tolerance, &px, &py)
                                body(index, solved == 1, px, py)
                            }
                        }
                    }
                }
            }
        }
    }
}
