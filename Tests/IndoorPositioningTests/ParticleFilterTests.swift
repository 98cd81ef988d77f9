import Foundation
import IndoorModel
import Testing

@testable import IndoorPositioning

@Suite("Particle filter")
struct ParticleFilterTests {
    /// Nodes 5 m apart on a 5 × 3 grid over 20 m × 10 m, on each of `floors` floors (ids `f<floor>-<k>`).
    static func nodes(floors: Int = 1) -> [Node] {
        var nodes: [Node] = []
        for floor in 0..<floors {
            for k in 0..<15 {
                nodes.append(
                    Node(
                        id: "f\(floor)-\(k)", position: Point3D(x: Double(k % 5) * 5, y: Double(k / 5) * 5, z: 0),
                        floor: floors > 1 ? floor : nil))
            }
        }
        return nodes
    }

    /// Two sightings per second from every node within 12 m of `position` on `floor` (one floor through the slab
    /// loses 15 dB), typical path loss with 3 dB of seeded noise.
    static func sightings(
        at time: Double, device: String, position: Point2D, floor: Int?, nodes: [Node], random: inout SplitMix64
    ) -> [Sighting] {
        var result: [Sighting] = []
        for half in 0..<2 {
            for node in nodes {
                let distance = max(0.5, node.position.horizontal.distance(to: position))
                guard distance < 12 else { continue }
                var rssi = -59 - 20 * log10(distance) + random.gaussian(deviation: 3)
                if let floor, let other = node.floor { rssi -= 15 * Double(abs(floor - other)) }
                result.append(
                    Sighting(time: time + 0.5 * Double(half), device: device, node: node.id, rssi: rssi.rounded()))
            }
        }
        return result
    }

    /// The readings `engine` gives device "d" at 0.6 s, after a second of its sightings (seeded by `seed`) from
    /// `position` among ``nodes(floors:)``'s one floor.
    static func firstReadings(_ engine: inout PositioningEngine, position: Point2D, seed: UInt64) -> [NodeReading] {
        var random = SplitMix64(seed: seed)
        engine.ingest(
            sightings(at: 0, device: "d", position: position, floor: nil, nodes: nodes(), random: &random))
        return engine.readings(device: "d", at: 0.6)
    }

    /// A walker along the corridor y = 5 at 1 m/s from x = 2 to x = 18 and back, one position per second.
    static func walk(seconds: Int) -> [Point2D] {
        (0..<seconds).map { t in
            let lap = Double(t % 32)
            return Point2D(x: lap < 16 ? 2 + lap : 18 - (lap - 16), y: 5)
        }
    }

    /// The fixes of `engine` for a walker, one per second after each second's sightings (or only at `asked` seconds).
    static func track(
        _ engine: inout PositioningEngine, path: [Point2D], floor: Int? = nil, seed: UInt64 = 3, asked: Set<Int>? = nil
    ) -> [Int: Fix] {
        var random = SplitMix64(seed: seed)
        var fixes: [Int: Fix] = [:]
        let nodes = Self.nodes(floors: floor == nil ? 1 : 2)
        for (second, position) in path.enumerated() {
            engine.ingest(
                sightings(
                    at: Double(second), device: "walker", position: position, floor: floor, nodes: nodes,
                    random: &random))
            guard asked?.contains(second) ?? true else { continue }
            if case .success(let fix) = engine.locate(device: "walker", at: Double(second) + 0.6) {
                fixes[second] = fix
            }
        }
        return fixes
    }

    @Test func followsAWalkerTheSameWayEveryRun() throws {
        let path = Self.walk(seconds: 64)
        var first = try MethodCatalog.engine(method: "particle-filter", nodes: Self.nodes())
        var second = first
        let fixes = Self.track(&first, path: path)
        #expect(fixes.count == path.count)
        // Seeded: the same sightings give the same fixes, bit for bit.
        #expect(Self.track(&second, path: path) == fixes)
        let errors = fixes.map { $0.value.position.horizontal.distance(to: path[$0.key]) }.sorted()
        let median = errors[errors.count / 2]
        #expect(median < 1.5, "median \(median) m")
        #expect(fixes.values.allSatisfy { $0.method == "particle-filter" && $0.accuracy > 0 })
    }

    /// The clouds' memory is bounded (`maximumBeliefBytes`): an engine whose clouds of 100 particles (about 4.9 kB
    /// each) may hold 48 960 bytes keeps 10 devices, forgetting the least recently heard half beyond that; a
    /// method without beliefs keeps `maximumDevices`.
    @Test func theEngineKeepsAsManyCloudsAsItsMemoryBoundHolds() throws {
        let nodes = Self.nodes()
        let configuration = PositioningEngine.Configuration(
            deviceExpiry: 1e9, maximumDevices: 1000, particles: 100, maximumBeliefBytes: 48_960)
        var engine = try MethodCatalog.engine(method: "particle-filter", nodes: nodes, configuration: configuration)
        let filter = try #require(engine.method as? ParticleFilter)
        #expect(filter.bytesPerBelief == 100 * 48 + MemoryLayout<ParticleFilter.Belief>.stride)
        #expect(engine.deviceLimit == 48_960 / filter.bytesPerBelief)
        #expect(engine.deviceLimit == 10)
        let plain = try MethodCatalog.engine(method: "nonlinear", nodes: nodes, configuration: configuration)
        #expect(plain.deviceLimit == 1000)
        for index in 0..<40 {
            let device = "d\(index)"
            for node in nodes.prefix(4) {
                engine.ingest(Sighting(time: Double(index), device: device, node: node.id, rssi: -65))
            }
            _ = engine.locate(device: device, at: Double(index) + 1.5)
            #expect(engine.deviceCount <= 10)
        }
        #expect(!engine.readings(device: "d39", at: 39).isEmpty)
    }

    /// The accuracy radius counts the distance the cloud's mean velocity covers in the lag time (a causal estimate
    /// trails a walker): a walker's radius grows by it, a device standing still keeps nearly the radius of its spread.
    /// The answer itself is moved on along that velocity by the lead time.
    @Test func radiusCountsTheLagOfAMovingCloud() throws {
        let engineFilter = try #require(
            try MethodCatalog.engine(method: "particle-filter", nodes: Self.nodes()).method as? ParticleFilter)
        #expect(engineFilter.configuration.lagTime == 0.5)
        var still = engineFilter.configuration
        still.lagTime = 0
        let noLag = ParticleFilter(posterior: engineFilter.posterior, configuration: still)
        /// The belief after following `path` (one position per second), and the cloud's mean velocity (m/s).
        func follow(_ path: [Point2D]) throws -> (ParticleFilter.Belief, Double, Double) {
            var engine = try MethodCatalog.engine(method: "particle-filter", nodes: Self.nodes())
            var random = SplitMix64(seed: 12)
            var belief: ParticleFilter.Belief?
            for (second, position) in path.enumerated() {
                engine.ingest(
                    Self.sightings(
                        at: Double(second), device: "d", position: position, floor: nil, nodes: Self.nodes(),
                        random: &random))
                let time = Double(second) + 0.6
                let readings = engine.readings(device: "d", at: time)
                if belief == nil {
                    belief = engineFilter.start(device: "d", readings: readings, at: time)
                } else if var current = belief {
                    engineFilter.update(&current, readings: readings, at: time)
                    belief = current
                }
            }
            let cloud = try #require(belief)
            var vx = 0.0
            var vy = 0.0
            for i in 0..<cloud.count {
                vx += cloud.weight[i] * cloud.vx[i]
                vy += cloud.weight[i] * cloud.vy[i]
            }
            return (cloud, vx, vy)
        }
        // Walking east along the corridor at 1 m/s for 14 s.
        let (walking, vx, vy) = try follow(Self.walk(seconds: 14))
        #expect(vx > 0.5 && abs(vy) < 0.4, "mean velocity (\(vx), \(vy)) m/s")
        let lagged = try engineFilter.estimate(from: walking).get()
        let plain = try noLag.estimate(from: walking).get()
        #expect(lagged.position == plain.position)
        // The answer is the cloud's mean moved on by 0.25 s of its mean velocity.
        #expect(engineFilter.configuration.leadTime == 0.25)
        var unled = engineFilter.configuration
        unled.leadTime = 0
        let mean = try ParticleFilter(posterior: engineFilter.posterior, configuration: unled).estimate(from: walking)
            .get().position
        #expect(abs(lagged.position.x - (mean.x + 0.25 * vx)) < 1e-9)
        #expect(abs(lagged.position.y - (mean.y + 0.25 * vy)) < 1e-9)
        // −ln(1 − 0.68) × (0.5 s × speed)² more in the square of the 68% radius.
        let added = -Foundation.log(0.32) * 0.25 * (vx * vx + vy * vy)
        let squares = lagged.accuracy * lagged.accuracy - plain.accuracy * plain.accuracy
        #expect(abs(squares - added) < 1e-6 * max(added, 1), "\(squares) m² against \(added) m²")
        #expect(lagged.accuracy > plain.accuracy)
        // Standing still at one place for 14 s: the cloud's mean velocity dies away, and so does the added radius.
        let (standing, sx, sy) = try follow([Point2D](repeating: Point2D(x: 10, y: 5), count: 14))
        #expect((sx * sx + sy * sy).squareRoot() < 0.3, "mean velocity (\(sx), \(sy)) m/s")
        let stillRadius = try engineFilter.estimate(from: standing).get().accuracy
        let stillPlain = try noLag.estimate(from: standing).get().accuracy
        #expect(
            stillRadius >= stillPlain && stillRadius < 1.05 * stillPlain, "\(stillRadius) m against \(stillPlain) m")
    }

    /// The age the weighing looks back by: the mean of the readings' ages, a reading stamped later counting 0.
    @Test func readingsAgeIsTheirMeanAgeAtTheUpdate() {
        let node = Self.nodes()[0]
        func reading(heard: Double) -> NodeReading {
            NodeReading(node: node, rssi: -70, distance: 3, distanceVariance: 1, lastHeard: heard)
        }
        #expect(ParticleFilter.meanAge([reading(heard: 9.5), reading(heard: 9)], at: 10) == 0.75)
        #expect(ParticleFilter.meanAge([reading(heard: 10.5), reading(heard: 9)], at: 10) == 0.5)
        #expect(ParticleFilter.meanAge([], at: 10) == 0)
        #expect(ParticleFilter.meanAge([reading(heard: .nan)], at: 10) == 0)
    }

    @Test func askingDoesNotChangeTheBelief() throws {
        let path = Self.walk(seconds: 40)
        var everySecond = try MethodCatalog.engine(method: "particle-filter", nodes: Self.nodes())
        var rarely = everySecond
        let all = Self.track(&everySecond, path: path)
        let some = Self.track(&rarely, path: path, asked: [10, 25, 39])
        #expect(some.count == 3)
        for (second, fix) in some { #expect(all[second] == fix) }
    }

    @Test func beatsItsOwnSnapshotOnAWalker() throws {
        // The same radio map and weighting without history (a cloud drawn afresh each time) against the filter.
        let path = Self.walk(seconds: 96)
        var filter = try MethodCatalog.engine(method: "particle-filter", nodes: Self.nodes())
        let method = try #require(filter.method as? ParticleFilter)
        var snapshot = PositioningEngine(
            nodes: Self.nodes(), method: Snapshot(filter: method), configuration: filter.configuration)
        func median(_ fixes: [Int: Fix]) -> Double {
            let errors = fixes.map { $0.value.position.horizontal.distance(to: path[$0.key]) }.sorted()
            return errors[errors.count / 2]
        }
        let tracked = median(Self.track(&filter, path: path))
        let alone = median(Self.track(&snapshot, path: path))
        #expect(tracked < alone, "filter \(tracked) m, snapshot \(alone) m")
    }

    /// Without a belief (a device's first fix), the filter answers the grid posterior's mean itself, not a sample of
    /// it, on the floor holding most of it; its radius is the one holding 68% of a Gaussian with the posterior's spread.
    @Test func theAnswerFromReadingsAloneIsThePosteriorMean() throws {
        let nodes = Self.nodes(floors: 2)
        var engine = try MethodCatalog.engine(method: "particle-filter", nodes: nodes)
        let filter = try #require(engine.method as? ParticleFilter)
        var random = SplitMix64(seed: 8)
        engine.ingest(
            Self.sightings(at: 0, device: "d", position: Point2D(x: 7, y: 4), floor: 1, nodes: nodes, random: &random))
        let readings = engine.readings(device: "d", at: 0.6)
        let answer = try filter.estimate(from: readings).get()
        let posterior = try filter.posterior.estimate(from: readings).get()
        #expect(answer.position == posterior.position)
        #expect(answer.floor == 1 && posterior.floor == 1)
        // √(−ln 0.32) = 1.0674: the 68% radius of a 2-D Gaussian in units of its root-mean-square radius.
        let half = filter.posterior.map.spacing / 2
        #expect(abs(answer.accuracy - max(half, 1.0674 * posterior.accuracy)) < 1e-3 * answer.accuracy)
        #expect(answer.position.horizontal.distance(to: Point2D(x: 7, y: 4)) < 2.5)
        // The same readings give the same answer (no draw involved), and nothing heard is no answer.
        let again = try filter.estimate(from: readings).get()
        #expect(again.position == answer.position && again.accuracy == answer.accuracy)
        #expect(throws: NoFix.self) { try filter.estimate(from: []).get() }
    }

    /// The filter reads a 1 s mean, yet a node heard within the engine's 5 s window still counts where a fix rests
    /// on the readings alone: a device's first fix before its belief starts, and a fix at a moment nothing was heard
    /// in the last second (the end of a scan whose beacons fell silent). The cloud's own updates read fresh values.
    @Test func aFixFromReadingsAloneHoldsNodesHeardWithinTheWindow() throws {
        var engine = try MethodCatalog.engine(method: "particle-filter", nodes: Self.nodes())
        let standing = Point2D(x: 7, y: 4)
        var random = SplitMix64(seed: 5)
        // One burst at 0 s and 0.5 s: 1.5 s later no filter has a value, and no belief has started.
        engine.ingest(
            Self.sightings(at: 0, device: "d", position: standing, floor: nil, nodes: Self.nodes(), random: &random))
        #expect(engine.readings(device: "d", at: 1.6).isEmpty)
        let heard = engine.fixReadings(device: "d", at: 1.6)
        #expect(heard.count == engine.readings(device: "d", at: 0.6).count)
        #expect(heard.count >= 6)
        let first = try engine.locate(device: "d", at: 1.6).get()
        #expect(first.position.horizontal.distance(to: standing) < 2.5)
        // Three more seconds start and update the belief; 3.5 s after the last sightings the held values answer.
        for second in 1...3 {
            engine.ingest(
                Self.sightings(
                    at: Double(second), device: "d", position: standing, floor: nil, nodes: Self.nodes(),
                    random: &random))
        }
        #expect(engine.readings(device: "d", at: 7).isEmpty)
        let late = try engine.locate(device: "d", at: 7).get()
        #expect(late.position.horizontal.distance(to: standing) < 2.5)
        // Past the window every node is stale.
        #expect(engine.fixReadings(device: "d", at: 9).isEmpty)
        #expect(throws: NoFix.self) { try engine.locate(device: "d", at: 9).get() }
    }

    /// A ``ParticleFilter``'s answer from the readings alone, as a plain method.
    struct Snapshot: PositioningMethod {
        let filter: ParticleFilter
        var name: String { "snapshot" }
        func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> { filter.estimate(from: readings) }
    }

    @Test func oneStrongReadingThroughTheSlabDoesNotSwitchFloors() throws {
        let nodes = Self.nodes(floors: 2)
        var engine = try MethodCatalog.engine(method: "particle-filter", nodes: nodes)
        var random = SplitMix64(seed: 5)
        var floors: [Int?] = []
        for second in 0..<40 {
            let position = Point2D(x: 10, y: 5)
            var batch = Self.sightings(
                at: Double(second), device: "d", position: position, floor: 0, nodes: nodes, random: &random)
            if second == 20 {
                // A door opens above: the node overhead reads as if on this floor, twice.
                batch += [0.2, 0.7].map { Sighting(time: Double(second) + $0, device: "d", node: "f1-7", rssi: -50) }
            }
            engine.ingest(batch.sorted { $0.time < $1.time })
            if second >= 5, case .success(let fix) = engine.locate(device: "d", at: Double(second) + 0.9) {
                floors.append(fix.floor)
            }
        }
        #expect(floors.count == 35)
        #expect(floors.allSatisfy { $0 == 0 }, "\(floors)")
        // Going upstairs for real does switch the floor, after a few seconds of evidence.
        var upstairs: [Int?] = []
        for second in 40..<70 {
            engine.ingest(
                Self.sightings(
                    at: Double(second), device: "d", position: Point2D(x: 10, y: 5), floor: 1, nodes: nodes,
                    random: &random))
            if case .success(let fix) = engine.locate(device: "d", at: Double(second) + 0.9) {
                upstairs.append(fix.floor)
            }
        }
        #expect(upstairs.last == 1)
        #expect(upstairs.suffix(20).allSatisfy { $0 == 1 }, "\(upstairs)")
    }

    /// The receiver offset is a drifting state: a new cloud's prior is the posterior's, evidence narrows it, and time
    /// without readings widens it again by the drift (never beyond the first prior).
    @Test func offsetEstimateNarrowsWithEvidenceAndDriftsWithoutIt() throws {
        var engine = try MethodCatalog.engine(method: "particle-filter", nodes: Self.nodes())
        let method = try #require(engine.method as? ParticleFilter)
        let sigma = method.posterior.configuration.offsetSigma
        #expect(sigma > 1)
        let readings = Self.firstReadings(&engine, position: Point2D(x: 9, y: 4), seed: 5)
        var belief = try #require(method.start(device: "d", readings: readings, at: 0.6))
        #expect(belief.offsetVariance == sigma * sigma)
        for second in 1...10 { method.update(&belief, readings: readings, at: 0.6 + Double(second)) }
        let narrowed = belief.offsetVariance
        #expect(narrowed > 0 && narrowed < sigma * sigma / 4, "variance \(narrowed) dB²")
        // 100 s without readings: the prior widens by drift² × 100 s, and nothing narrows it.
        method.update(&belief, readings: [], at: 110.6)
        let drift = method.configuration.offsetDrift
        #expect(abs(belief.offsetVariance - min(narrowed + drift * drift * 100, sigma * sigma)) < 1e-9)
        // A day without readings: back to the first prior, no broader.
        method.update(&belief, readings: [], at: 86_400)
        #expect(belief.offsetVariance == sigma * sigma)
        // Absurd readings cannot leave the offset's variance undefined, nor so narrow that the offset could not move.
        let absurd = readings.map {
            NodeReading(
                node: $0.node, rssi: 1e80, distance: $0.distance, distanceVariance: $0.distanceVariance,
                lastHeard: 86_400.5)
        }
        method.update(&belief, readings: absurd, at: 86_401)
        #expect(belief.offsetVariance >= 1e-6 * sigma * sigma && belief.offsetVariance <= sigma * sigma)
    }

    @Test func resamplingKeepsTheCloudAndItsWeightsWhole() throws {
        var engine = try MethodCatalog.engine(method: "particle-filter", nodes: Self.nodes())
        let method = try #require(engine.method as? ParticleFilter)
        let readings = Self.firstReadings(&engine, position: Point2D(x: 7, y: 3), seed: 9)
        var belief = try #require(method.start(device: "d", readings: readings, at: 0.6))
        #expect(belief.count == 1000)
        for second in 1...20 { method.update(&belief, readings: readings, at: 0.6 + Double(second)) }
        #expect(belief.count == 1000)
        #expect(abs(belief.weight.reduce(0, +) - 1) < 1e-9)
        #expect(belief.effectiveSize >= 1 && belief.effectiveSize <= 1000)
        // Readings 8 dB above the map's everywhere: the offset estimate moves towards them.
        let loud = readings.map {
            NodeReading(
                node: $0.node, rssi: $0.rssi + 8, distance: $0.distance, distanceVariance: $0.distanceVariance,
                lastHeard: $0.lastHeard)
        }
        for second in 21...40 { method.update(&belief, readings: loud, at: 0.6 + Double(second)) }
        #expect(belief.offset > 4, "offset \(belief.offset) dB")
    }

    /// With readings so far off that the product of the Student-t factors overflows, the likelihood falls back to
    /// the sum of their logarithms and stays finite, equal to the model computed term by term.
    @Test func farOffReadingsKeepAFiniteLikelihood() throws {
        let engine = try MethodCatalog.engine(method: "particle-filter", nodes: Self.nodes())
        let filter = try #require(engine.method as? ParticleFilter)
        let map = filter.posterior.map
        let likelihood = filter.likelihood
        let columns = Array(0..<min(8, map.nodeCount))
        let values = columns.map { _ in 1e80 }
        let cells: [Int32] = [0, 7, Int32(likelihood.cellCount - 1)]
        var logs = [Double](repeating: 0, count: cells.count)
        var offsets = [Double](repeating: 0, count: cells.count)
        var variances = [Double](repeating: 1, count: cells.count)
        // No prior on the offset: it stays at the prior mean, 0 dB, and every residual is about 10⁸⁰ dB.
        cells.withUnsafeBufferPointer { cells in
            logs.withUnsafeMutableBufferPointer { logs in
                offsets.withUnsafeMutableBufferPointer { offsets in
                    variances.withUnsafeMutableBufferPointer { variances in
                        likelihood.evaluate(
                            cells: cells, columns: columns, values: values, priorPrecision: 0, priorMean: 0, scale: 1,
                            logs: logs, offsets: offsets, variances: variances)
                    }
                }
            }
        }
        for (s, cell) in cells.enumerated() {
            let c = Int(cell)
            var expected = likelihood.missing[c]
            for column in columns {
                let entry = likelihood.entries[column * likelihood.cellCount + c]
                let e = values[column] - entry.mean
                expected -=
                    likelihood.tail * log1p(e * e * Double(entry.precision) * likelihood.inverseNu)
                    + Double(entry.constant)
            }
            #expect(offsets[s] == 0)
            #expect(variances[s] == 0)
            #expect(expected.isFinite)
            #expect(abs(logs[s] - expected) <= 1e-9 * abs(expected), "cell \(c): \(logs[s]) vs \(expected)")
        }
    }

    /// The lattice is every n-th grid point for the n whose spacing is nearest the asked one (between two, the finer),
    /// and every point when the grid is as coarse as two thirds of it or an asked spacing is unusable.
    @Test func latticeStrideIsTheNearestToTheAskedSpacing() {
        let cases: [(asked: Double, grid: Double, stride: Int)] = [
            (0.75, 0.25, 3), (0.75, 0.2545, 3), (0.75, 0.3347, 2), (0.75, 0.3, 2), (0.75, 0.5, 1), (0.75, 1, 1),
            (1, 0.25, 4), (0.01, 0.25, 1), (.nan, 0.25, 1), (.infinity, 0.25, 1),
        ]
        for (asked, spacing, stride) in cases {
            let grid = RadioMap.Grid(
                minimum: Point2D(x: 0, y: 0), maximum: Point2D(x: 10, y: 10), spacing: spacing, floors: [nil],
                height: nil)
            #expect(ParticleFilter.stride(spacing: asked, grid: grid) == stride, "\(asked) m on \(spacing) m")
        }
        #expect(ParticleFilter.Configuration().likelihoodSpacing == 0.75)
    }

    /// A particle is looked up at the nearest lattice point inside the grid, wherever it is: beyond the grid, at an
    /// infinity or at NaN (a place no finite arithmetic should give, but a lookup must never trap on).
    @Test func lookupsStayInsideTheGrid() {
        let last: Int32 = 40
        let cases: [(Double, Int32)] = [
            (-5, 0), (-0.4, 0), (0, 0), (2.4, 2), (2.6, 3), (39.7, 40), (40, 40), (41, 40), (1e300, 40),
            (.infinity, 40), (-.infinity, 0), (.nan, 0),
        ]
        for (value, expected) in cases {
            #expect(CloudPlaces.nearest(value, last: last) == expected, "\(value)")
        }
    }

    /// Systematic resampling picks, for each target (u + i) / n, the first particle whose cumulative weight reaches
    /// it (the last particle any left over): the same picks as a plain merge of the targets and the cumulative
    /// weights, on weights with zeros, one particle, and more picks than particles or fewer.
    @Test func systematicResamplingPicksWhereTheCumulativeWeightReachesEachTarget() {
        var draw = SplitMix64(seed: 21)
        for (trial, (particles, picks)) in [(1, 5), (3, 1000), (250, 250), (1000, 1000), (40, 7)].enumerated() {
            var weights = (0..<particles).map { _ in draw.unit() < 0.3 ? 0 : draw.unit() }
            if weights.allSatisfy({ $0 == 0 }) { weights[particles - 1] = 1 }
            let total = weights.reduce(0, +)
            weights = weights.map { $0 / total }
            var random = SplitMix64(seed: UInt64(trial))
            var copy = random
            let u = copy.unit()
            var cumulative: [Double] = []
            for w in weights { cumulative.append((cumulative.last ?? 0) + w) }
            let expected = (0..<picks).map { i in
                let target = (u + Double(i)) / Double(picks)
                return cumulative.dropLast().firstIndex { $0 >= target } ?? particles - 1
            }
            let drawn = [Int](unsafeUninitializedCapacity: picks) { buffer, initialized in
                weights.withUnsafeBufferPointer {
                    ParticleFilter.systematic(weights: $0, into: buffer, random: &random)
                }
                initialized = picks
            }
            #expect(drawn == expected, "\(particles) particles, \(picks) picks")
            #expect(random.next() == copy.next(), "one number drawn")
        }
    }

    /// The weights after one update equal those of the model computed directly (double precision, exact `log1p`,
    /// particle by particle, at the lattice point nearest each: every grid point with a spacing finer than the grid's,
    /// every second with 1 m on this 0.5 m grid) to 1e-4 relative.
    @Test(arguments: [0.01, 1.0])
    func weightsMatchTheModelComputedDirectly(likelihoodSpacing: Double) throws {
        var engine = try MethodCatalog.engine(method: "particle-filter", nodes: Self.nodes())
        // Never resampling nor giving way to the readings, so the cloud keeps its order.
        let method = ParticleFilter(
            posterior: try #require(engine.method as? ParticleFilter).posterior,
            configuration: ParticleFilter.Configuration(
                resampleBelow: 0, likelihoodSpacing: likelihoodSpacing, lostChance: 0))
        let readings = Self.firstReadings(&engine, position: Point2D(x: 12, y: 6), seed: 4)
        let belief = try #require(method.start(device: "d", readings: readings, at: 0.6))
        // Readings 3 dB off, so that the offset estimate matters.
        let shifted = readings.map {
            NodeReading(
                node: $0.node, rssi: $0.rssi + 3, distance: $0.distance, distanceVariance: $0.distanceVariance,
                lastHeard: $0.lastHeard)
        }
        var updated = belief
        updated.weight = belief.weight.indices.map { Double($0 % 7 + 1) }
        let total = updated.weight.reduce(0, +)
        updated.weight = updated.weight.map { $0 / total }
        let prior = updated.weight
        // No time passes: the update only weighs.
        var reference = updated
        method.update(&updated, readings: shifted, at: 0.6)
        let map = method.posterior.map
        let settings = method.posterior.configuration
        let scale = settings.temperature * method.configuration.evidenceWeight
        let tau2 = settings.offsetSigma * settings.offsetSigma
        let nu = settings.degreesOfFreedom
        var logs: [Double] = []
        var offsets: [Double] = []
        // The readings were heard before 0.6 s: each particle is weighed where its velocity says it was then.
        let age = ParticleFilter.meanAge(shifted, at: 0.6)
        #expect(age > 0.05 && age < 0.6, "mean age \(age) s")
        for i in 0..<reference.count {
            // The lattice point nearest where the particle was when the readings were heard, as the filter finds it:
            // grid columns and rows that are multiples of `stride`.
            let grid = map.grid
            let stride = likelihoodSpacing < 1 ? 1 : 2
            #expect(grid.spacing == 0.5)
            let step = grid.spacing * Double(stride)
            let x = reference.x[i] - age * reference.vx[i]
            let y = reference.y[i] - age * reference.vy[i]
            let column = min(max((x - grid.minimum.x) / step, 0), Double((grid.columns - 1) / stride))
            let row = min(max((y - grid.minimum.y) / step, 0), Double((grid.rows - 1) / stride))
            let cell =
                reference.floor[i] * grid.rows * grid.columns + Int(row + 0.5) * stride * grid.columns
                + Int(column + 0.5) * stride
            var weight = 1 / tau2
            var sum = 0.0
            var heard: [(column: Int, rssi: Double)] = []
            for reading in shifted {
                guard let column = map.column(of: reading.node.id), !heard.contains(where: { $0.column == column })
                else { continue }
                heard.append((column, reading.rssi))
                let w = map.inverseVariance[cell * map.nodeCount + column]
                weight += w
                sum += w * (reading.rssi - map.mean[cell * map.nodeCount + column])
            }
            let offset = sum / weight
            var value = -0.5 * offset * offset / tau2
            var missing = map.missSum[cell]
            for (column, rssi) in heard {
                let index = cell * map.nodeCount + column
                let e = rssi - map.mean[index] - offset
                value -= 0.5 * (nu + 1) * log1p(e * e * map.inverseVariance[index] / nu) + map.halfLogVariance[index]
                missing -= map.missLog[index]
            }
            logs.append(scale * (value + settings.missingWeight * missing))
            offsets.append(offset)
        }
        let peak = try #require(logs.max())
        var expected = (0..<reference.count).map { prior[$0] * exp(logs[$0] - peak) }
        let sum = expected.reduce(0, +)
        expected = expected.map { $0 / sum }
        reference.offset = zip(expected, offsets).reduce(0) { $0 + $1.0 * $1.1 }
        for i in 0..<reference.count {
            #expect(abs(updated.weight[i] - expected[i]) <= 1e-4 * expected[i] + 1e-300, "particle \(i)")
        }
        #expect(abs(updated.offset - reference.offset) < 1e-4, "offset \(updated.offset) vs \(reference.offset)")
    }
}
