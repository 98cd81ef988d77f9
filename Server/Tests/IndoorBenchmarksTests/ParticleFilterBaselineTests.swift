import IndoorModel
import IndoorPositioning
import Testing

@testable import IndoorBenchmarks

@Suite("the particle filter's C reference")
struct ParticleFilterBaselineTests {
    /// The C update does the Swift update's work: from the same clouds, with the same readings at the same times, it
    /// moves, weighs and resamples the same particles, so the clouds, offsets and estimates stay the same (up to the
    /// order of floating-point sums) update after update. Should either update change alone, this fails.
    @Test func theCUpdateMovesAndWeighsTheSameParticles() throws {
        let workload = PositioningWorkload(devices: 6, seed: 4)
        let checked = ParticleFilterBench.filter(workload: workload)
        // The C update has no lost-cloud check: a filter with it has no C reference.
        #expect(checked.configuration.lostChance > 0 && ParticleFilterBaseline(filter: checked) == nil)
        var unchecked = checked.configuration
        unchecked.lostChance = 0
        let filter = ParticleFilter(posterior: checked.posterior, configuration: unchecked)
        var lists = workload.readings()
        var beliefs = lists.enumerated().compactMap {
            filter.start(device: "d\($0.offset)", readings: $0.element, at: 0)
        }
        #expect(beliefs.count == 6)
        let baseline = try #require(ParticleFilterBaseline(filter: filter))
        for belief in beliefs { baseline.add(belief) }
        var resampled = 0
        for step in 1...12 {
            // Some updates come half a second late, one before the one it follows (no move), readings of varying age.
            let time = step == 7 ? 6.0 : Double(step) + (step % 3 == 0 ? 0.5 : 0)
            let age = 0.25 * Double(step % 4)
            for index in lists.indices {
                for reading in lists[index].indices { lists[index][reading].lastHeard = time - age }
            }
            for index in beliefs.indices {
                filter.update(&beliefs[index], readings: lists[index], at: time)
                // Equal weights after an update: it resampled.
                if Set(beliefs[index].weight).count == 1 { resampled += 1 }
            }
            baseline.updateAll(lists.map { baseline.heard($0) }, at: time)
            for (index, belief) in beliefs.enumerated() {
                let cloud = baseline.clouds[index]
                #expect(cloud.randomState == belief.random.state, "update \(step), device \(index)")
                #expect(cloud.time == belief.time)
                #expect(Self.largestDifference(cloud.x, belief.x) < 1e-9)
                #expect(Self.largestDifference(cloud.y, belief.y) < 1e-9)
                #expect(Self.largestDifference(cloud.vx, belief.vx) < 1e-9)
                #expect(Self.largestDifference(cloud.vy, belief.vy) < 1e-9)
                #expect(Self.largestDifference(cloud.weight, belief.weight) < 1e-12)
                #expect(abs(cloud.offset - belief.offset) < 1e-9)
                #expect(abs(cloud.offsetVariance - belief.offsetVariance) < 1e-9)
            }
        }
        // The run went through resampling, which is where the two could part most.
        #expect(resampled > 0)
        // The estimate from the C cloud: the same as the Swift filter's.
        let estimate = try filter.estimate(from: beliefs[0]).get()
        let cloud = baseline.clouds[0]
        // The planes are slices of one array: indexed from their own start.
        let weights = Array(cloud.weight)
        let xs = Array(cloud.x)
        let vxs = Array(cloud.vx)
        var x = 0.0
        var total = 0.0
        var vx = 0.0
        for i in 0..<cloud.count {
            x += weights[i] * xs[i]
            vx += weights[i] * vxs[i]
            total += weights[i]
        }
        let lead = filter.configuration.leadTime * vx / total
        #expect(abs(x / total + lead - estimate.position.x) < 1e-6)
    }

    @Test func aMapWithFloorsHasNoCReference() {
        let nodes = (0..<8).map { index in
            Node(
                id: "n\(index)", position: Point3D(x: Double(index % 4) * 5, y: 0, z: 2.5 + 4 * Double(index / 4)),
                floor: index / 4)
        }
        let map = RadioMap.pathLoss(
            nodes: nodes, calibration: Calibration(deviceHeight: 1.2),
            grid: RadioMap.Grid.around(nodes: nodes, height: 1.2))
        #expect(ParticleFilterBaseline(filter: ParticleFilter(posterior: PosteriorGrid(map: map))) == nil)
    }

    static func largestDifference(_ a: ArraySlice<Double>, _ b: [Double]) -> Double {
        guard a.count == b.count else { return .infinity }
        return zip(a, b).map { abs($0 - $1) }.max() ?? 0
    }
}
