import Foundation
import IndoorModel

/// Fingerprinting by weighted k nearest neighbours in signal space.
///
/// The device's filtered RSSI vector is compared with every survey ``Fingerprint`` (Euclidean distance in dB,
/// a node not heard counting as ``missingDBm``); the answer is the mean of the k nearest fingerprints' positions,
/// weighted by the inverse of their signal distance. Build the fingerprints from a survey with
/// ``survey(nodes:recording:configuration:calibration:spacing:)`` so they pass through the same filters as live data.
public struct FingerprintKNN: PositioningMethod {
    /// The name in reports (default `knn`).
    public let name: String
    /// How many neighbours are averaged.
    public var k: Int
    /// Whether matching ignores a constant dB offset between device and survey (over the nodes both heard):
    /// robust to receivers that read stronger or weaker than the survey's.
    public var offsetInvariant: Bool
    /// The RSSI (dBm) that stands for "not heard".
    public let missingDBm: Double
    private let nodeIndex: [String: Int]
    private let table: [Double]
    private let heard: [Bool]
    private let positions: [Point3D]
    private let floors: [Int?]

    /// The number of fingerprints.
    public var count: Int { positions.count }

    /// - Parameters:
    ///   - fingerprints: The survey.
    ///   - k: Neighbours averaged (default 3).
    ///   - missingDBm: RSSI for a node not heard; `nil` uses 5 dB below the weakest RSSI in the survey.
    ///   - name: The method's name in reports.
    ///   - offsetInvariant: Ignore a constant dB offset between device and survey.
    public init(
        fingerprints all: [Fingerprint], k: Int = 3, missingDBm: Double? = nil, offsetInvariant: Bool = false,
        name: String = "knn"
    ) {
        self.name = name
        self.k = max(1, k)
        self.offsetInvariant = offsetInvariant
        let fingerprints = all.filter {
            $0.position.x.isFinite && $0.position.y.isFinite && $0.position.z.isFinite
        }
        var index: [String: Int] = [:]
        for fingerprint in fingerprints {
            for id in fingerprint.rssi.keys.sorted() where index[id] == nil { index[id] = index.count }
        }
        let weakest = fingerprints.flatMap(\.rssi.values).filter(\.isFinite).min() ?? -100
        let missing = missingDBm ?? (weakest - 5)
        self.missingDBm = missing
        var table = [Double](repeating: missing, count: fingerprints.count * index.count)
        var heard = [Bool](repeating: false, count: fingerprints.count * index.count)
        for (row, fingerprint) in fingerprints.enumerated() {
            for (id, rssi) in fingerprint.rssi where rssi.isFinite {
                if let column = index[id] {
                    table[row * index.count + column] = rssi
                    heard[row * index.count + column] = true
                }
            }
        }
        self.heard = heard
        self.nodeIndex = index
        self.table = table
        self.positions = fingerprints.map(\.position)
        self.floors = fingerprints.map(\.floor)
    }

    /// The inverse-distance-weighted mean position (metres, venue frame) of the ``k`` fingerprints nearest in
    /// signal space; `notHeard` when no reading names a surveyed node, `noSolution` when none can be matched.
    public func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        guard !positions.isEmpty else {
            return .failure(NoFix(.noSolution, "the fingerprint survey is empty"))
        }
        let width = nodeIndex.count
        var query = [Double](repeating: missingDBm, count: width)
        var queryHeard = [Bool](repeating: false, count: width)
        var known = 0
        for reading in readings {
            guard reading.rssi.isFinite else {
                return .failure(NoFix(.invalidInput, "node '\(reading.node.id)' has a non-finite rssi"))
            }
            if let column = nodeIndex[reading.node.id] {
                query[column] = reading.rssi
                queryHeard[column] = true
                known += 1
            }
        }
        guard known > 0 else {
            return .failure(NoFix(.notHeard, "none of the nodes heard appears in the fingerprint survey"))
        }
        let used = min(k, positions.count)
        var bestDistance = [Double](repeating: .infinity, count: used)
        var bestRow = [Int](repeating: 0, count: used)
        table.withUnsafeBufferPointer { rows in
            query.withUnsafeBufferPointer { q in
                for row in 0..<positions.count {
                    var total = 0.0
                    var shared = 0.0
                    var both = 0
                    let base = row * width
                    for column in 0..<width {
                        let d = q[column] - rows[base + column]
                        total += d * d
                        if offsetInvariant, queryHeard[column], heard[base + column] {
                            shared += d
                            both += 1
                        }
                    }
                    if both > 1 { total -= shared * shared / Double(both) }
                    guard total < bestDistance[used - 1] else { continue }
                    var slot = used - 1
                    while slot > 0, bestDistance[slot - 1] > total {
                        bestDistance[slot] = bestDistance[slot - 1]
                        bestRow[slot] = bestRow[slot - 1]
                        slot -= 1
                    }
                    bestDistance[slot] = total
                    bestRow[slot] = row
                }
            }
        }
        // A reading so far out (say −1e200 dBm) that its squared distance overflows matches no row: no fix, not NaN.
        guard bestDistance[0].isFinite else {
            return .failure(
                NoFix(.noSolution, "the readings are too far from every fingerprint to match one (absurd RSSI?)"))
        }
        // The floor: a vote of the neighbours' floors weighted like their positions (ties to the nearer
        // neighbour's floor); only neighbours on that floor are averaged. Without surveyed floors, the
        // strongest nodes' floors vote.
        var floorVotes: [(floor: Int, weight: Double)] = []
        for slot in 0..<used where bestDistance[slot].isFinite {
            guard let floor = floors[bestRow[slot]] else { continue }
            let w = 1 / (bestDistance[slot].squareRoot() + 1e-3)
            if let index = floorVotes.firstIndex(where: { $0.floor == floor }) {
                floorVotes[index].weight += w
            } else {
                floorVotes.append((floor, w))
            }
        }
        var floor: Int?
        if var best = floorVotes.first {
            for candidate in floorVotes.dropFirst() where candidate.weight > best.weight { best = candidate }
            floor = best.floor
        } else {
            floor = FloorSelection.vote(readings)
        }
        var x = 0.0
        var y = 0.0
        var z = 0.0
        var weights = 0.0
        for slot in 0..<used where bestDistance[slot].isFinite && (floorVotes.isEmpty || floors[bestRow[slot]] == floor)
        {
            let w = 1 / (bestDistance[slot].squareRoot() + 1e-3)
            let p = positions[bestRow[slot]]
            x += w * p.x
            y += w * p.y
            z += w * p.z
            weights += w
        }
        x /= weights
        y /= weights
        z /= weights
        var spread = 0.0
        for slot in 0..<used where bestDistance[slot].isFinite && (floorVotes.isEmpty || floors[bestRow[slot]] == floor)
        {
            let w = 1 / (bestDistance[slot].squareRoot() + 1e-3)
            let p = positions[bestRow[slot]]
            spread += w * ((p.x - x) * (p.x - x) + (p.y - y) * (p.y - y))
        }
        let accuracy = max(0.5, (spread / weights).squareRoot())
        return .success(
            Estimate(
                position: Point3D(x: x, y: y, z: z), floor: floor, accuracy: accuracy,
                confidence: 1 / (1 + accuracy / 2)))
    }

    /// The fingerprints merged by position: one per distinct (position, floor), each node's RSSI the mean
    /// over the merged fingerprints that heard it (kept when at least half of them did).
    static func averagedByPosition(_ fingerprints: [Fingerprint]) -> [Fingerprint] {
        struct Key: Hashable {
            var x: Double, y: Double, z: Double, floor: Int?
        }
        var order: [Key] = []
        var groups: [Key: [Fingerprint]] = [:]
        for fingerprint in fingerprints {
            let p = fingerprint.position
            let key = Key(x: p.x, y: p.y, z: p.z, floor: fingerprint.floor)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(fingerprint)
        }
        return order.compactMap { key -> Fingerprint? in
            guard let group = groups[key], let first = group.first else { return nil }
            var sums: [String: (Double, Int)] = [:]
            for fingerprint in group {
                for (id, rssi) in fingerprint.rssi {
                    let current = sums[id] ?? (0, 0)
                    sums[id] = (current.0 + rssi, current.1 + 1)
                }
            }
            var rssi: [String: Double] = [:]
            for (id, sum) in sums where 2 * sum.1 >= group.count { rssi[id] = sum.0 / Double(sum.1) }
            return Fingerprint(position: first.position, floor: first.floor, rssi: rssi)
        }
    }

    /// Fingerprints from a survey, taken through the engine's own filters.
    ///
    /// Each survey device is replayed alone in time order. A moving device is sampled at each of its truth times;
    /// a static one (one truth row, or all rows at one point) every `spacing` seconds over its sightings and at its last.
    /// - Parameters:
    ///   - nodes: The fixed radios.
    ///   - recording: Sightings with truth.
    ///   - configuration: The engine tuning the live data will see.
    ///   - calibration: The calibration the live engine uses.
    ///   - spacing: Seconds between samples of a static device.
    public static func survey(
        nodes: [Node], recording: Recording, configuration: PositioningEngine.Configuration,
        calibration: Calibration, spacing seconds: Double = 1
    ) -> [Fingerprint] {
        let tracks = TruthTrack.tracks(recording.truth)
        let spacing = seconds.isFinite && seconds > 0 ? seconds : 1
        var order: [String] = []
        var byDevice: [String: [Sighting]] = [:]
        for sighting in recording.sightings {
            if byDevice[sighting.device] == nil { order.append(sighting.device) }
            byDevice[sighting.device, default: []].append(sighting)
        }
        // Only the readings count: the fingerprints never need a position track.
        var untracked = configuration
        untracked.tracking = nil
        var engine = PositioningEngine(
            nodes: nodes, method: WeightedCentroid(), configuration: untracked, calibration: calibration)
        var result: [Fingerprint] = []
        for device in order {
            guard let track = tracks[device], let sightings = byDevice[device], let first = sightings.first,
                let last = sightings.last
            else { continue }
            var times: [Double] = []
            if track.isStatic {
                // A sample with no sighting in the window before it has no readings: jump over such gaps, so a
                // bogus far-away timestamp cannot make billions of sample times.
                let heard = sightings.map(\.time).sorted()
                let start = first.time + configuration.window
                var time = start
                var upcoming = 0
                while time < last.time {
                    while upcoming < heard.count, heard[upcoming] < time - configuration.window { upcoming += 1 }
                    guard upcoming < heard.count else { break }
                    if heard[upcoming] > time {
                        time = max(time + spacing, start + ((heard[upcoming] - start) / spacing).rounded(.up) * spacing)
                        continue
                    }
                    times.append(time)
                    time += spacing
                }
                times.append(last.time)
            } else {
                times = track.points.map(\.time).filter { $0 >= first.time && $0 <= last.time + configuration.window }
            }
            var next = 0
            func sample(_ time: Double) {
                let readings = engine.readings(device: device, at: time)
                guard !readings.isEmpty, let truth = track.position(at: time) else { return }
                var rssi: [String: Double] = [:]
                for reading in readings { rssi[reading.node.id] = reading.rssi }
                let z = truth.z ?? calibration.deviceHeight ?? 0
                result.append(
                    Fingerprint(
                        position: Point3D(x: truth.point.x, y: truth.point.y, z: z),
                        floor: track.floor(at: time), rssi: rssi))
            }
            for sighting in sightings {
                while next < times.count, times[next] < sighting.time {
                    sample(times[next])
                    next += 1
                }
                engine.ingest(sighting)
            }
            while next < times.count {
                sample(times[next])
                next += 1
            }
        }
        return result
    }
}
