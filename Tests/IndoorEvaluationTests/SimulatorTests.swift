import Foundation
import IndoorModel
import IndoorPositioning
import Testing

@testable import IndoorEvaluation

@Suite("Simulator")
struct SimulatorTests {
    /// A short run, to keep the tests fast.
    static func small(seed: UInt64 = 7) -> SimulatorOptions {
        var options = SimulatorOptions()
        options.seed = seed
        options.duration = 60
        options.devices = 2
        options.roomsPerSide = 4
        options.beaconsPerFloor = 8
        return options
    }

    static func text(_ simulated: SimulatedDataset) throws -> String {
        try simulated.files().map { "== \($0.path)\n\($0.contents)" }.joined()
    }

    @Test func sameSeedGivesIdenticalFiles() throws {
        let first = try Self.text(Simulator(options: Self.small()).run())
        let second = try Self.text(Simulator(options: Self.small()).run())
        #expect(first == second)
        #expect(first.contains("== test/sightings.csv\nt,device,node,rssi\n"))
    }

    @Test func differentSeedGivesDifferentData() throws {
        let first = try Simulator(options: Self.small(seed: 7)).run()
        let second = try Simulator(options: Self.small(seed: 8)).run()
        #expect(first.dataset.test.sightings != second.dataset.test.sightings)
        #expect(first.dataset.test.truth != second.dataset.test.truth)
        // The building does not depend on the seed, only the beacons' drawn powers do.
        #expect(first.venue.floors == second.venue.floors)
        #expect(first.venue.nodes.map(\.position) == second.venue.nodes.map(\.position))
    }

    @Test func generatorIsDeterministicAndUniform() {
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        let first = (0..<5).map { _ in a.next() }
        #expect(first == (0..<5).map { _ in b.next() })
        // Published first output of SplitMix64 for seed 0.
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
        var random = SplitMix64(seed: 3)
        let samples = (0..<20_000).map { _ in random.gaussian(mean: 1, deviation: 2) }
        let mean = samples.reduce(0, +) / Double(samples.count)
        let variance = samples.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(samples.count - 1)
        #expect(abs(mean - 1) < 0.06)
        #expect(abs(variance.squareRoot() - 2) < 0.05)
    }

    @Test func beaconsHaveIdentitiesCalibrationAndSitOnWalls() throws {
        var options = Self.small()
        options.floors = 2
        let simulated = try Simulator(options: options).run()
        let venue = simulated.venue
        #expect(venue.floors.map(\.level) == [0, 1])
        #expect(venue.nodes.count == 16)
        #expect(simulated.dataset.nodes == venue.nodes)
        for node in venue.nodes {
            let beacon = try #require(node.beacon)
            #expect(beacon.uuid == Simulator.beaconUUID)
            #expect(Int(beacon.major) == node.floor)
            #expect(node.id == "b\(beacon.major)-\(beacon.minor)")
            #expect(node.calibration?.pathLossExponent == options.pathLossExponent)
            let floor = try #require(venue.floor(level: node.floor ?? -1))
            #expect(floor.outline.contains(node.position.horizontal))
            // Mounted 5 cm off a wall.
            let nearest = floor.walls.map { $0.distance(to: node.position.horizontal) }.min() ?? .infinity
            #expect(abs(nearest - 0.05) < 1e-6)
        }
        #expect(Set(venue.nodes.compactMap(\.beacon)).count == venue.nodes.count)
        let sighting = try #require(simulated.dataset.test.sightings.first)
        let beacon = try #require(simulated.beacon(of: sighting))
        #expect(simulated.beaconSightings([sighting]).first?.source == .beacon(beacon))
        #expect(simulated.dataset.test.truth.allSatisfy { $0.floor != nil })
    }

    @Test func walkersMoveAtWalkingSpeedInsideTheBuilding() throws {
        var options = Self.small()
        options.duration = 240
        let simulated = try Simulator(options: options).run()
        let outline = try #require(simulated.venue.floors.first).outline
        let truth = simulated.dataset.test.truth
        #expect(truth.count == 2 * 241)
        #expect(truth.allSatisfy { outline.contains($0.point) && $0.floor == nil && $0.z == 1.2 })
        var speeds: [Double] = []
        for device in ["walker-1", "walker-2"] {
            let rows = truth.filter { $0.device == device }
            for (a, b) in zip(rows, rows.dropFirst()) {
                speeds.append(a.point.distance(to: b.point) / (b.time - a.time))
            }
        }
        // Never faster than a brisk walk, standing still part of the time, walking about 1.2 m/s otherwise.
        #expect(speeds.allSatisfy { $0 < 2.01 })
        #expect(speeds.filter { $0 < 0.01 }.count > speeds.count / 5)
        let walking = speeds.filter { $0 > 0.9 }
        #expect(walking.count > speeds.count / 10)
        let walkingMean = walking.reduce(0, +) / Double(walking.count)
        #expect(abs(walkingMean - 1.2) < 0.25)
        // Sightings are sorted by time and name known nodes.
        let sightings = simulated.dataset.test.sightings
        #expect(zip(sightings, sightings.dropFirst()).allSatisfy { $0.time <= $1.time })
        let ids = Set(simulated.venue.nodes.map(\.id))
        #expect(sightings.allSatisfy { if case .node(let id) = $0.source { ids.contains(id) } else { false } })
    }

    /// Walkers change floor by the stairs one flight at a time: the truth's floor never jumps a level between
    /// consecutive rows, and every change happens at the stairs, inside the stairwell the venue lists.
    @Test func floorsChangeOneFlightAtATimeAtTheStairs() throws {
        var options = Self.small(seed: 3)
        options.floors = 4
        options.devices = 6
        options.duration = 600
        let simulated = try Simulator(options: options).run()
        let stairwell = try #require(simulated.venue.connections.first)
        #expect(stairwell.levels == [0, 1, 2, 3])
        var changes = 0
        for device in Set(simulated.dataset.test.truth.map(\.device)) {
            let rows = simulated.dataset.test.truth.filter { $0.device == device }
            for (a, b) in zip(rows, rows.dropFirst()) {
                guard let from = a.floor, let to = b.floor, from != to else { continue }
                changes += 1
                #expect(abs(to - from) == 1)
                #expect(stairwell.contains(b.point))
            }
        }
        #expect(changes > 5)
    }

    @Test func surveyVisitsEveryRoom() throws {
        let simulated = try Simulator(options: Self.small()).run()
        let train = try #require(simulated.dataset.train)
        #expect(Set(train.truth.map(\.device)) == ["survey"])
        #expect(!train.sightings.isEmpty)
        // Each of the 8 rooms' centres (x = 2.5 + 5k; y = 4 or 14.4) is a truth point.
        for k in 0..<4 {
            for y in [4.0, 14.4] {
                let centre = Point2D(x: 2.5 + 5 * Double(k), y: y)
                #expect(train.truth.contains { $0.point.distance(to: centre) < 0.01 })
            }
        }
    }

    /// With no walls, floors, offsets or losses, fitting RSSI against log10(distance) must recover the
    /// configured exponent (slope −10n) and shadowing σ (the residual spread; rounding to whole dBm adds 1/12 dB²).
    @Test(arguments: [(2.0, 4.0), (2.7, 6.0)])
    func pathLossFitRecoversExponentAndSigma(exponent: Double, sigma: Double) throws {
        var options = Self.lossless(Self.small())
        options.duration = 120
        options.pathLossExponent = exponent
        options.shadowingSigma = sigma
        options.slowShadowingSigma = 0
        var xs: [Double] = []
        var ys: [Double] = []
        for link in Self.links(try Simulator(options: options).run()) {
            xs.append(log10(link.meters))
            ys.append(link.sighting.rssi)
        }
        // Every packet is heard: beacons × devices × packets.
        #expect(xs.count > 8 * 2 * 200)
        let n = Double(xs.count)
        let meanX = xs.reduce(0, +) / n
        let meanY = ys.reduce(0, +) / n
        var sxy = 0.0
        var sxx = 0.0
        for (x, y) in zip(xs, ys) {
            sxy += (x - meanX) * (y - meanY)
            sxx += (x - meanX) * (x - meanX)
        }
        let slope = sxy / sxx
        let intercept = meanY - slope * meanX
        var squares = 0.0
        for (x, y) in zip(xs, ys) {
            let residual = y - (intercept + slope * x)
            squares += residual * residual
        }
        let residualSigma = (squares / (n - 2)).squareRoot()
        #expect(abs(-slope / 10 - exponent) < 0.05)
        #expect(abs(intercept - options.rssiAtOneMeter) < 0.5)
        #expect(abs(residualSigma - (sigma * sigma + 1.0 / 12).squareRoot()) < 0.15)
    }

    /// Slow shadowing alone: consecutive packets of one link are strongly correlated, its spread is about σ.
    @Test func slowShadowingIsCorrelated() throws {
        var options = Self.lossless(Self.small())
        options.duration = 200
        options.shadowingSigma = 0
        options.slowShadowingSigma = 3
        var residuals: [String: [Double]] = [:]
        for link in Self.links(try Simulator(options: options).run()) {
            let mean = options.rssiAtOneMeter - 10 * options.pathLossExponent * log10(link.meters)
            residuals["\(link.sighting.device) \(link.node)", default: []].append(link.sighting.rssi - mean)
        }
        var pairs: [(Double, Double)] = []
        var all: [Double] = []
        for series in residuals.values {
            all += series
            pairs += zip(series, series.dropFirst()).map { ($0, $1) }
        }
        let variance = all.map { $0 * $0 }.reduce(0, +) / Double(all.count)
        let covariance = pairs.map { $0.0 * $0.1 }.reduce(0, +) / Double(pairs.count)
        #expect(abs(variance.squareRoot() - 3) < 0.8)
        #expect(covariance / variance > 0.8)
    }

    /// `options` with no walls, floor loss, receiver offsets, beacon power spread or packet loss: every packet heard.
    static func lossless(_ options: SimulatorOptions) -> SimulatorOptions {
        var options = options
        options.wallLoss = 0
        options.floorLoss = 0
        options.deviceOffsetSigma = 0
        options.beaconPowerSigma = 0
        options.packetLoss = 0
        options.sensitivity = -200
        return options
    }

    /// Each test sighting of a node, with the node's id and the true 3-D distance between walker and node, metres.
    static func links(_ simulated: SimulatedDataset) -> [(sighting: Sighting, node: String, meters: Double)] {
        let nodes = Dictionary(uniqueKeysWithValues: simulated.venue.nodes.map { ($0.id, $0) })
        return simulated.dataset.test.sightings.compactMap { sighting in
            guard case .node(let id) = sighting.source, let node = nodes[id],
                let path = simulated.trajectories[sighting.device]
            else { return nil }
            let state = path.state(at: sighting.time)
            let meters = Point3D(x: state.point.x, y: state.point.y, z: state.height).distance(to: node.position)
            return (sighting, id, meters)
        }
    }

    @Test func unusableOptionsAreNamed() {
        var options = Self.small()
        options.truthInterval = 0
        options.advertisingInterval = -1
        #expect(options.problems == ["advertising interval must be 0.02...10.24 s", "truth interval must be positive"])
        #expect(Self.small().problems.isEmpty)
    }

    // Running them stops with that message instead of looping for ever on a zero truth interval.
    @Test func unusableOptionsAreAnErrorNamingThem() {
        var options = SimulatorOptions()
        options.truthInterval = 0
        options.floors = 0
        #expect(throws: SimulatorOptionsError(problems: options.problems)) { try Simulator(options: options).run() }
        #expect(options.problems.count == 2)
        #expect(options.problems.contains("floors must be 1...50"))
    }

    @Test func wallsAndFloorsAttenuate() {
        var options = Self.small()
        options.floors = 2
        let layout = OfficeLayout(options: options)
        let radio = RadioModel(options: options, wallsByLevel: [0: layout.walls, 1: layout.walls])
        let beacon = Point2D(x: 2.5, y: 4)  // centre of the first south room
        func mean(_ receiver: Point2D, level: Int) -> Double {
            radio.meanRSSI(
                beacon: beacon, beaconHeight: 1.2, beaconLevel: 0, rssiAtOneMeter: -59, receiver: receiver,
                receiverHeight: 1.2 + 3.5 * Double(level), receiverLevel: level)
        }
        // 3 m away in the same room: path loss only, −59 − 20·log10(3).
        #expect(abs(mean(Point2D(x: 2.5, y: 1), level: 0) - (-59 - 20 * log10(3.0))) < 1e-9)
        // Into the room opposite, straight through both doors (10.4 m): no wall.
        #expect(abs(mean(Point2D(x: 2.5, y: 14.4), level: 0) - (-59 - 20 * log10(10.4))) < 1e-9)
        // Into the room opposite, off the doors' line: two corridor walls.
        let offLine = (2.0 * 2.0 + 10.4 * 10.4).squareRoot()
        #expect(abs(mean(Point2D(x: 0.5, y: 14.4), level: 0) - (-59 - 20 * log10(offLine) - 8)) < 1e-9)
        // Next room, 5 m east: one partition wall.
        #expect(abs(mean(Point2D(x: 7.5, y: 4), level: 0) - (-59 - 20 * log10(5.0) - 4)) < 1e-9)
        // Straight up one floor (3.5 m): one floor's loss.
        #expect(abs(mean(beacon, level: 1) - (-59 - 20 * log10(3.5) - 15)) < 1e-9)
    }
}

@Suite("Simulator progress")
struct SimulatorProgressTests {
    @Test func progressCoversTestThenTrainAndEndsComplete() throws {
        var options = SimulatorOptions()
        options.devices = 2
        options.duration = 30
        var reports: [(part: String, done: Int, total: Int)] = []
        let simulated = try Simulator(options: options).run { reports.append(($0, $1, $2)) }
        #expect(reports.first?.part == "test")
        #expect(reports.last?.part == "train")
        let test = reports.filter { $0.part == "test" }
        #expect(test.first?.done == 0)
        #expect(test.last.map { $0.done == $0.total && $0.total > 0 } == true)
        #expect(zip(test, test.dropFirst()).allSatisfy { $0.done < $1.done })
        // Progress is only a report: the same options without it give the same data.
        #expect(try Simulator(options: options).run().dataset == simulated.dataset)
    }
}

@Suite("Simulator.stream")
struct SimulatorStreamTests {
    @Test(arguments: [1, 2])
    func streamingGivesTheRowsOfRunInTheSameOrder(floors: Int) throws {
        var options = SimulatorTests.small(seed: 9)
        options.floors = floors
        let simulator = Simulator(options: options)
        let held = try simulator.run()
        var rows: [Simulator.Split: Recording] = [
            .train: Recording(sightings: [], truth: []), .test: Recording(sightings: [], truth: []),
        ]
        var counts = SimulationCounts()
        let streamed = try simulator.stream(
            sighting: { split, sighting in
                counts.add(sightingOf: split)
                rows[split]?.sightings.append(sighting)
            },
            truth: { split, row in
                counts.add(truthOf: split)
                rows[split]?.truth.append(row)
            })
        #expect(rows[.test] == held.dataset.test)
        #expect(rows[.train] == held.dataset.train)
        #expect(streamed.venue == held.venue)
        #expect(try simulator.venue() == held.venue)
        #expect(counts == held.counts)
        #expect(streamed.readme(counts: counts) == held.readme())
        #expect(streamed.dataset.test.sightings.isEmpty)
    }
}
