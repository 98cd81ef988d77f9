import Foundation
import IndoorModel

/// Simulates beacons in an office and phones walking through it: a dataset with exact ground truth.
///
/// Pure: `run()` returns values and touches no file or clock; all randomness comes from ``SplitMix64``
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
    }

    private func random(_ stream: Stream, _ index: UInt64 = 0) -> SplitMix64 {
        SplitMix64(seed: options.seed, stream: stream.rawValue << 32 | index)
    }

    /// Builds the venue, walks the walkers and the survey, and simulates every packet.
    ///
    /// - Parameter progress: Told now and then how far the packet simulation is: the part (`test` or `train`),
    ///   advertising events done and in all. Long runs (many floors, walkers or minutes) take seconds.
    /// - Throws: ``SimulatorOptionsError`` when ``SimulatorOptions/problems`` is not empty: options out of
    ///   range would otherwise loop for ever (a truth interval of 0) or trap somewhere deep.
    public func run(
        progress: (_ part: String, _ done: Int, _ total: Int) -> Void = { _, _, _ in }
    ) throws -> SimulatedDataset {
        let problems = options.problems
        guard problems.isEmpty else { throw SimulatorOptionsError(problems: problems) }
        let layout = OfficeLayout(options: options)
        let floors = (0..<options.floors).map { level in
            Floor(
                level: level, name: level == 0 ? "Ground floor" : "Floor \(level)", outline: layout.outline,
                walls: layout.walls, elevation: Double(level) * options.floorHeight)
        }
        let nodes = makeNodes(layout: layout)
        let venue = Venue(
            id: "sim-office", name: "Simulated office (seed \(options.seed))", floors: floors, nodes: nodes,
            anchor: Self.anchor)

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
        let test = Recording(
            sightings: sightings(
                nodes: nodes, receivers: walkers.map { ($0.id, $0.path, $0.offset) }, until: options.duration,
                radio: radio, random: &testRandom, progress: { progress("test", $0, $1) }),
            truth: truth(walkers.map { ($0.id, $0.path) }, until: options.duration))
        var surveyRandom = random(.radioSurvey)
        let surveyEnd = surveyPath.endTime
        let train = Recording(
            sightings: sightings(
                nodes: nodes, receivers: [("survey", surveyPath, 0)], until: surveyEnd, radio: radio,
                random: &surveyRandom, progress: { progress("train", $0, $1) }),
            truth: truth([("survey", surveyPath)], until: surveyEnd))

        let dataset = Dataset(name: "sim-office-seed\(options.seed)", nodes: nodes, train: train, test: test)
        return SimulatedDataset(
            venue: venue, dataset: dataset,
            trajectories: Dictionary(uniqueKeysWithValues: walkers.map { ($0.id, $0.path) }),
            surveyTrajectory: surveyPath,
            receiverOffsets: Dictionary(uniqueKeysWithValues: walkers.map { ($0.id, $0.offset) }),
            options: options)
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

    /// Every received packet from every node to every receiver between 0 and `end` seconds, sorted by time.
    private func sightings(
        nodes: [Node], receivers: [(id: String, path: Trajectory, offset: Double)], until end: Double,
        radio: RadioModel, random: inout SplitMix64, progress: (_ done: Int, _ total: Int) -> Void
    ) -> [Sighting] {
        // Advertising events of every node: a random phase, then the interval plus 0…10 ms of advDelay.
        var events: [(time: Double, node: Int)] = []
        for index in nodes.indices {
            var time = random.uniform(0...options.advertisingInterval)
            while time <= end {
                events.append((time, index))
                time += options.advertisingInterval + random.uniform(0...0.01)
            }
        }
        events.sort { ($0.time, $0.node) < ($1.time, $1.node) }
        var result: [Sighting] = []
        // Slow shadowing per (node, receiver) link: its value, and where and when it was last drawn.
        var slow: [[(value: Double, point: Point2D, height: Double, time: Double)?]] = Array(
            repeating: Array(repeating: nil, count: receivers.count), count: nodes.count)
        for (done, event) in events.enumerated() {
            if done % 4096 == 0 { progress(done, events.count) }
            let node = nodes[event.node]
            let level = node.floor ?? 0
            let beaconHeight = Double(level) * options.floorHeight + node.position.z
            let power = node.calibration?.rssiAtOneMeter ?? options.rssiAtOneMeter
            for (index, receiver) in receivers.enumerated() {
                let state = receiver.path.state(at: event.time)
                // Links that cannot reach the sensitivity even 5σ above their mean without walls (far away, or
                // floors apart) are skipped: this keeps large buildings fast.
                let ceiling = radio.meanRSSI(
                    beacon: node.position.horizontal, beaconHeight: beaconHeight, beaconLevel: level,
                    rssiAtOneMeter: power, receiver: state.point, receiverHeight: state.height,
                    receiverLevel: state.level, countingWalls: false)
                let margin = 5 * (options.shadowingSigma + options.slowShadowingSigma)
                guard ceiling + receiver.offset + margin >= options.sensitivity else {
                    slow[event.node][index] = nil
                    continue
                }
                // Draw every number for every packet so that the stream does not depend on the outcome.
                let lost = random.unit() < options.packetLoss
                let fast = random.gaussian(deviation: options.shadowingSigma)
                let innovation = random.gaussian(deviation: options.slowShadowingSigma)
                // Gudmundson: correlation exp(−moved / distance − elapsed / time), stationary variance kept.
                var slowValue = innovation
                if let last = slow[event.node][index] {
                    let dx = state.point.x - last.point.x
                    let dy = state.point.y - last.point.y
                    let dz = state.height - last.height
                    let moved = (dx * dx + dy * dy + dz * dz).squareRoot()
                    let rho = exp(
                        -moved / options.slowShadowingDistance - (event.time - last.time) / options.slowShadowingTime)
                    slowValue = rho * last.value + (1 - rho * rho).squareRoot() * innovation
                }
                slow[event.node][index] = (slowValue, state.point, state.height, event.time)
                let shadowing = fast + slowValue
                let mean = radio.meanRSSI(
                    beacon: node.position.horizontal, beaconHeight: beaconHeight, beaconLevel: level,
                    rssiAtOneMeter: power, receiver: state.point, receiverHeight: state.height,
                    receiverLevel: state.level)
                let rssi = (mean + receiver.offset + shadowing).rounded()
                guard !lost, rssi >= options.sensitivity else { continue }
                result.append(Sighting(time: Self.round(event.time, 3), device: receiver.id, node: node.id, rssi: rssi))
            }
        }
        progress(events.count, events.count)
        return result
    }

    /// Truth rows every ``SimulatorOptions/truthInterval`` seconds from 0 to `end`, by time then device.
    private func truth(_ walkers: [(id: String, path: Trajectory)], until end: Double) -> [TruthPoint] {
        var rows: [TruthPoint] = []
        var step = 0
        while true {
            let time = Self.round(Double(step) * options.truthInterval, 3)
            guard time <= end else { break }
            for walker in walkers {
                let state = walker.path.state(at: time)
                rows.append(
                    TruthPoint(
                        time: time, device: walker.id,
                        point: Point2D(x: Self.round(state.point.x, 3), y: Self.round(state.point.y, 3)),
                        z: Self.round(state.height - Double(state.level) * options.floorHeight, 3),
                        floor: options.floors > 1 ? state.level : nil))
            }
            step += 1
        }
        return rows
    }

    /// `value` rounded to `decimals` decimals.
    static func round(_ value: Double, _ decimals: Int) -> Double {
        let scale = pow(10, Double(decimals))
        return (value * scale).rounded() / scale
    }
}
