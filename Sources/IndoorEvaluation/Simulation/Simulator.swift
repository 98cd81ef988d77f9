import Foundation
import IndoorModel
import IndoorPositioning

/// Simulates beacons in an office and phones walking through it: a dataset with exact ground truth.
///
/// Pure: `run()` returns values and touches no file or clock (``stream(sighting:truth:progress:)`` hands the rows
/// to the caller one at a time, for runs too large to hold); all randomness comes from ``SplitMix64``
/// streams derived from ``SimulatorOptions/seed``, so the same options always give the same dataset.
///
/// ```swift
/// var options = SimulatorOptions()
/// options.floors = 2
/// let simulated = try Simulator(options: options).run()
/// ```
public struct Simulator: Sendable {
    /// What to simulate.
    public var options: SimulatorOptions

    /// The proximity UUID every simulated beacon advertises (major = floor level, minor = index on the floor).
    public static let beaconUUID = UUID(
        uuid: (
            0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0
        ))

    /// Where the simulated building stands: Berlin, +y axis 20° east of north.
    public static let anchor = GeoAnchor(
        origin: GeoCoordinate(latitude: 52.520008, longitude: 13.404954), bearingDegrees: 20)

    /// A simulator of `options` (the default: a realistic one-floor office).
    public init(options: SimulatorOptions = SimulatorOptions()) {
        self.options = options
    }

    // Independent random streams, so that changing one part (say the beacon count) leaves the others alone.
    private enum Stream: UInt64 {
        case beacons = 1
        case walkers = 2
        case radioTest = 3
        case radioSurvey = 4
        case receivers = 5
        case nodeReceivers = 6
        case radioLinks = 7
    }

    private func random(_ stream: Stream, _ index: UInt64 = 0) -> SplitMix64 {
        SplitMix64(seed: options.seed, stream: stream.rawValue << 32 | index)
    }

    /// Which part of the dataset a row belongs to.
    public enum Split: String, Sendable, Hashable {
        /// The survey walk (`train/`).
        case train
        /// The walkers (`test/`), which are scored.
        case test
    }

    /// Builds the venue, walks the walkers and the survey, and simulates every packet, in memory.
    ///
    /// Memory grows with devices × duration (every sighting is held); for large runs use
    /// ``stream(sighting:truth:progress:)``, which gives the same rows one at a time.
    ///
    /// - Parameter progress: Told now and then how far the packet simulation is: the part (`test` or `train`),
    ///   advertising events done and in all. Long runs (many floors, walkers or minutes) take seconds.
    /// - Throws: ``SimulatorOptionsError`` when ``SimulatorOptions/problems`` is not empty: options out of
    ///   range would otherwise loop for ever (a truth interval of 0) or trap somewhere deep.
    public func run(
        progress: (_ part: String, _ done: Int, _ total: Int) -> Void = { _, _, _ in }
    ) throws -> SimulatedDataset {
        var test = Recording(sightings: [], truth: [])
        var train = Recording(sightings: [], truth: [])
        var simulated = try stream(
            sighting: { split, sighting in
                switch split {
                case .test: test.sightings.append(sighting)
                case .train: train.sightings.append(sighting)
                }
            },
            truth: { split, row in
                switch split {
                case .test: test.truth.append(row)
                case .train: train.truth.append(row)
                }
            }, progress: progress)
        simulated.dataset.test = test
        simulated.dataset.train = train
        return simulated
    }

    /// Simulates like ``run(progress:)`` but hands over each row as soon as it is made instead of keeping it.
    ///
    /// Rows come in file order: the test sightings (by time), the test truth rows (by time, then device), then
    /// the train sightings and truth rows; the same rows, in the same order, as ``run(progress:)`` collects.
    /// What stays in memory is small and does not grow with devices × duration: the venue, each walker's path
    /// (its waypoints), one pending advertising event and one random generator per node, and the slow shadowing
    /// of the node–receiver links in range.
    ///
    /// - Parameters:
    ///   - sighting: Told each received packet; may throw to stop the run (a full disk).
    ///   - truth: Told each truth row.
    ///   - progress: As for ``run(progress:)``.
    /// - Returns: The venue, paths and options, with empty recordings (their rows went to `sighting` and `truth`).
    /// - Throws: ``SimulatorOptionsError`` for options out of range, or what `sighting` or `truth` throws.
    public func stream(
        sighting: (Split, Sighting) throws -> Void,
        truth: (Split, TruthPoint) throws -> Void,
        progress: (_ part: String, _ done: Int, _ total: Int) -> Void = { _, _, _ in }
    ) throws -> SimulatedDataset {
        let venue = try venue()
        let floors = venue.floors
        let layout = OfficeLayout(options: options)
        // The radios as they are, each with its power (the venue's nodes may not say it).
        let nodes = makeNodes(layout: layout)
        let planner = WalkPlanner(layout: layout, options: options)
        var walkers: [(id: String, path: Trajectory, offset: Double)] = []
        var receiverRandom = random(.receivers)
        for index in 0..<options.devices {
            var walkRandom = random(.walkers, UInt64(index))
            let path = planner.walker(duration: options.duration, using: &walkRandom)
            let offset = receiverRandom.gaussian(deviation: options.deviceOffsetSigma)
            walkers.append(("walker-\(index + 1)", path, offset))
        }
        let surveyPath = planner.survey()
        let radio = RadioModel(
            options: options, wallsByLevel: Dictionary(uniqueKeysWithValues: floors.map { ($0.level, $0.walls) }))

        var testRandom = random(.radioTest)
        // Nodes that hear each other draw from their own streams: the walkers' sightings stay those of a run without.
        var linkRandom = random(.radioLinks)
        try sightings(
            nodes: nodes, receivers: walkers.map { ($0.id, $0.path, $0.offset) }, until: options.duration,
            radio: radio, random: &testRandom, links: options.nodeLinks ? nodeReceivers(nodes) : [],
            linkRandom: &linkRandom, progress: { progress("test", $0, $1) }, emit: { try sighting(.test, $0) })
        try truthRows(walkers.map { ($0.id, $0.path) }, until: options.duration, emit: { try truth(.test, $0) })
        var surveyRandom = random(.radioSurvey)
        let surveyEnd = surveyPath.endTime
        try sightings(
            nodes: nodes, receivers: [("survey", surveyPath, 0)], until: surveyEnd, radio: radio,
            random: &surveyRandom, links: [], linkRandom: &linkRandom, progress: { progress("train", $0, $1) },
            emit: { try sighting(.train, $0) })
        try truthRows([("survey", surveyPath)], until: surveyEnd, emit: { try truth(.train, $0) })

        let empty = Recording(sightings: [], truth: [])
        let dataset = Dataset(name: "sim-office-seed\(options.seed)", nodes: venue.nodes, train: empty, test: empty)
        return SimulatedDataset(
            venue: venue, dataset: dataset,
            trajectories: Dictionary(uniqueKeysWithValues: walkers.map { ($0.id, $0.path) }),
            surveyTrajectory: surveyPath,
            receiverOffsets: Dictionary(uniqueKeysWithValues: walkers.map { ($0.id, $0.offset) }),
            options: options)
    }

    /// The building alone: floors with walls, beacon nodes with identities and calibration, one zone per room
    /// and per corridor of each floor (polygon fences, see ``OfficeLayout/zones(level:)``), the stairs between the
    /// floors (a ``FloorConnection`` over ``OfficeLayout/stairwell``, when there are several), the geo anchor.
    ///
    /// The same venue as ``run(progress:)`` and ``stream(sighting:truth:progress:)`` return, known before any
    /// packet is simulated (to map node ids to beacon identities while rows stream).
    ///
    /// - Throws: ``SimulatorOptionsError`` when ``SimulatorOptions/problems`` is not empty.
    public func venue() throws -> Venue {
        let problems = options.problems
        guard problems.isEmpty else { throw SimulatorOptionsError(problems: problems) }
        let layout = OfficeLayout(options: options)
        let floors = (0..<options.floors).map { level in
            Floor(
                level: level, name: level == 0 ? "Ground floor" : "Floor \(level)", outline: layout.outline,
                walls: layout.walls, elevation: Double(level) * options.floorHeight)
        }
        return Venue(
            id: "sim-office", name: "Simulated office (seed \(options.seed))", floors: floors,
            // With node links nobody measured the nodes' power: the venue does not say it (the radio still has it).
            nodes: makeNodes(layout: layout).map { node in
                var node = node
                if options.nodeLinks { node.calibration = nil }
                return node
            }, zones: (0..<options.floors).flatMap { layout.zones(level: $0) },
            anchor: Self.anchor,
            connections: options.floors > 1
                ? [
                    FloorConnection(
                        id: "stairs", kind: .stairs, levels: Array(0..<options.floors),
                        shape: .polygon(layout.stairwell))
                ] : [])
    }

    private func makeNodes(layout: OfficeLayout) -> [Node] {
        var random = random(.beacons)
        var nodes: [Node] = []
        for level in 0..<options.floors {
            for (index, mount) in layout.beaconMounts(count: options.beaconsPerFloor).enumerated() {
                let minor = index + 1
                let power = options.rssiAtOneMeter + random.gaussian(deviation: options.beaconPowerSigma)
                nodes.append(
                    Node(
                        id: "b\(level)-\(minor)",
                        beacon: BeaconID(uuid: Self.beaconUUID, major: UInt16(level), minor: UInt16(clamping: minor)),
                        position: Point3D(
                            x: Self.round(mount.x, 2), y: Self.round(mount.y, 2), z: options.beaconHeight),
                        floor: options.floors > 1 ? level : nil,
                        calibration: NodeCalibration(
                            rssiAtOneMeter: Self.round(power, 1), pathLossExponent: options.pathLossExponent)))
            }
        }
        return nodes
    }

    /// The nodes as receivers of each other's packets (``SimulatorOptions/nodeLinks``): standing where they are
    /// mounted, named `node:<id>`, each with a gain offset of ``SimulatorOptions/nodeOffsetSigma``.
    private func nodeReceivers(_ nodes: [Node]) -> [(id: String, path: Trajectory, offset: Double)] {
        var offsets = random(.nodeReceivers)
        return nodes.map { node in
            var path = Trajectory()
            let level = node.floor ?? 0
            path.append(
                time: 0, point: node.position.horizontal,
                height: Double(level) * options.floorHeight + node.position.z, level: level)
            return (
                NodeLinkCalibration.nodeDevicePrefix + node.id, path,
                offsets.gaussian(deviation: options.nodeOffsetSigma)
            )
        }
    }

    /// Every received packet from every node to every receiver between 0 and `end` seconds, in time order,
    /// handed to `emit` one at a time: the `receivers` drawing from `random`, then the nodes as receivers (`links`,
    /// in node order, a node never hearing itself) drawing from `linkRandom`.
    private func sightings(
        nodes: [Node], receivers walkers: [(id: String, path: Trajectory, offset: Double)], until end: Double,
        radio: RadioModel, random walkerRandom: inout SplitMix64,
        links: [(id: String, path: Trajectory, offset: Double)], linkRandom: inout SplitMix64,
        progress: (_ done: Int, _ total: Int) -> Void, emit: (Sighting) throws -> Void
    ) throws {
        let receivers = walkers + links
        // Advertising events of every node: a random phase, then the interval plus 0…10 ms of advDelay.
        var events = AdvertisingSchedule(
            nodes: nodes.count, interval: options.advertisingInterval, until: end, random: &walkerRandom)
        let total = events.count
        // Slow shadowing per (node, receiver) link in range (key node × receivers + receiver): its value, and
        // where and when it was last drawn. Links out of range hold nothing.
        var slow: [Int: (value: Double, point: Point2D, height: Double, time: Double)] = [:]
        var done = 0
        while let event = events.next() {
            if done % 4096 == 0 { progress(done, total) }
            done += 1
            let node = nodes[event.node]
            let level = node.floor ?? 0
            let beaconHeight = Double(level) * options.floorHeight + node.position.z
            let power = node.calibration?.rssiAtOneMeter ?? options.rssiAtOneMeter
            for (index, receiver) in receivers.enumerated() {
                let isLink = index >= walkers.count
                if isLink, index - walkers.count == event.node { continue }
                let state = receiver.path.state(at: event.time)
                // Links that cannot reach the sensitivity even 5σ above their mean without walls (far away, or
                // floors apart) are skipped: this keeps large buildings fast.
                let ceiling = radio.meanRSSI(
                    beacon: node.position.horizontal, beaconHeight: beaconHeight, beaconLevel: level,
                    rssiAtOneMeter: power, receiver: state.point, receiverHeight: state.height,
                    receiverLevel: state.level, countingWalls: false)
                let margin = 5 * (options.shadowingSigma + options.slowShadowingSigma)
                let link = event.node * receivers.count + index
                guard ceiling + receiver.offset + margin >= options.sensitivity else {
                    slow.removeValue(forKey: link)
                    continue
                }
                // Draw every number for every packet so that the stream does not depend on the outcome.
                let (lost, fast, innovation) =
                    isLink ? draws(&linkRandom) : draws(&walkerRandom)
                // Gudmundson: correlation exp(−moved / distance − elapsed / time), stationary variance kept.
                var slowValue = innovation
                if let last = slow[link] {
                    let dx = state.point.x - last.point.x
                    let dy = state.point.y - last.point.y
                    let dz = state.height - last.height
                    let moved = (dx * dx + dy * dy + dz * dz).squareRoot()
                    let rho = exp(
                        -moved / options.slowShadowingDistance - (event.time - last.time) / options.slowShadowingTime)
                    slowValue = rho * last.value + (1 - rho * rho).squareRoot() * innovation
                }
                slow[link] = (slowValue, state.point, state.height, event.time)
                let shadowing = fast + slowValue
                let mean = radio.meanRSSI(
                    beacon: node.position.horizontal, beaconHeight: beaconHeight, beaconLevel: level,
                    rssiAtOneMeter: power, receiver: state.point, receiverHeight: state.height,
                    receiverLevel: state.level)
                let rssi = (mean + receiver.offset + shadowing).rounded()
                guard !lost, rssi >= options.sensitivity else { continue }
                try emit(Sighting(time: Self.round(event.time, 3), device: receiver.id, node: node.id, rssi: rssi))
            }
        }
        progress(total, total)
    }

    /// One packet's random numbers: whether it is lost, its fast shadowing and its slow shadowing's innovation (dB).
    private func draws(_ random: inout SplitMix64) -> (lost: Bool, fast: Double, innovation: Double) {
        let lost = random.unit() < options.packetLoss
        let fast = random.gaussian(deviation: options.shadowingSigma)
        return (lost, fast, random.gaussian(deviation: options.slowShadowingSigma))
    }

    /// Truth rows every ``SimulatorOptions/truthInterval`` seconds from 0 to `end`, by time then device, handed to
    /// `emit` one at a time.
    private func truthRows(
        _ walkers: [(id: String, path: Trajectory)], until end: Double, emit: (TruthPoint) throws -> Void
    ) throws {
        var step = 0
        while true {
            let time = Self.round(Double(step) * options.truthInterval, 3)
            guard time <= end else { break }
            for walker in walkers {
                let state = walker.path.state(at: time)
                try emit(
                    TruthPoint(
                        time: time, device: walker.id,
                        point: Point2D(x: Self.round(state.point.x, 3), y: Self.round(state.point.y, 3)),
                        z: Self.round(state.height - Double(state.level) * options.floorHeight, 3),
                        floor: options.floors > 1 ? state.level : nil))
            }
            step += 1
        }
    }

    /// `value` rounded to `decimals` decimals.
    static func round(_ value: Double, _ decimals: Int) -> Double {
        let scale = pow(10, Double(decimals))
        return (value * scale).rounded() / scale
    }
}
