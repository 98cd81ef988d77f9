import Foundation
import IndoorModel

/// The locator Bermuda (the Home Assistant integration) runs by default, re-implemented from its description and
/// source as a comparator, not a recommendation: the device is at the node it is nearest to, and changes node only
/// when another is clearly nearer.
///
/// Each node's distance comes from the locator's own path loss (``referencePower`` at 1 m, exponent
/// ``attenuation``; Bermuda's defaults −55 dBm and 3), from the engine's filtered RSSI. Every ``step`` seconds the
/// distance of each node heard joins that node's history (at most ``smoothingSamples`` entries; a retreat faster
/// than ``maximumSpeed`` repeats the last entry instead), and the node's smoothed distance is the mean of the
/// history's running minimum, never more than the newest distance: it follows an approach at once and a retreat
/// slowly. A node not heard for ``timeout`` seconds leaves the contest.
///
/// The current node is kept until a challenger heard within ``maximumRadius`` is nearer and either has been nearer
/// over the last five entries of both histories by a relative margin over 0.15, or is nearer by a margin of at least
/// 0.18, the margin being |a − b| / ((a + b) / 2) for smoothed distances a and b (Bermuda's `pcnt_diff`, as its
/// current source computes it). The answer is the current node's position and floor; the accuracy (metres, at least
/// 1) is its smoothed distance.
///
/// Without history (``estimate(from:)``) the answer is the node with the shortest distance.
public struct NearestArea: PositioningMethod, SequentialPositioningMethod {
    public let name = "nearest-area"
    /// The received power at 1 m, dBm.
    public var referencePower: Double
    /// The path-loss exponent.
    public var attenuation: Double
    /// The farthest smoothed distance, metres, at which a node can win the device.
    public var maximumRadius: Double
    /// How many distances each node's history keeps.
    public var smoothingSamples: Int
    /// The fastest retreat, metres per second, taken as real.
    public var maximumSpeed: Double
    /// Seconds without a reading after which a node leaves the contest.
    public var timeout: Double
    /// Seconds between updates of the belief.
    public var step: Double

    /// Bermuda's defaults: −55 dBm at 1 m, exponent 3, 20 m radius, 20 samples, 3 m/s, 30 s, an update a second.
    public init(
        referencePower: Double = -55, attenuation: Double = 3, maximumRadius: Double = 20, smoothingSamples: Int = 20,
        maximumSpeed: Double = 3, timeout: Double = 30, step: Double = 1
    ) {
        self.referencePower = referencePower
        self.attenuation = attenuation > 0 ? attenuation : 3
        self.maximumRadius = maximumRadius
        self.smoothingSamples = max(1, smoothingSamples)
        self.maximumSpeed = maximumSpeed
        self.timeout = timeout
        self.step = step > 0 ? step : 1
    }

    /// What the locator knows of one node for one device.
    struct NodeTrack: Sendable {
        var node: Node
        var lastHeard: Double
        /// Smoothing's distances, newest first, metres.
        var history: [Double]
        /// The last ten distances as read (before the speed check), newest first, metres.
        var raw: [Double]
        /// When each distance of `raw` was read, seconds, newest first.
        var times: [Double]
        /// The smoothed distance, metres.
        var smoothed: Double
    }

    /// The locator's state for one device: each node's track and the node the device is at.
    struct Belief: Sendable {
        var tracks: [String: NodeTrack] = [:]
        var current: String?
    }

    var bytesPerBelief: Int { 64 * (smoothingSamples * 16 + 160) }

    /// The distance of a reading by the locator's own path loss, metres.
    func distance(rssi: Double) -> Double {
        pow(10, (referencePower - rssi) / (10 * attenuation))
    }

    public func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        guard let nearest = readings.filter({ $0.rssi.isFinite }).max(by: { $0.rssi < $1.rssi }) else {
            return .failure(NoFix(.notHeard, "no node heard"))
        }
        return .success(answer(at: nearest.node, distance: distance(rssi: nearest.rssi)))
    }

    func start(device: String, readings: [NodeReading], at time: Double) -> Belief? {
        var belief = Belief()
        update(&belief, readings: readings, at: time)
        return belief.current == nil ? nil : belief
    }

    func update(_ belief: inout Belief, readings: [NodeReading], at time: Double) {
        for reading in readings where reading.rssi.isFinite {
            let raw = distance(rssi: reading.rssi)
            var track =
                belief.tracks[reading.node.id]
                ?? NodeTrack(
                    node: reading.node, lastHeard: reading.lastHeard, history: [], raw: [], times: [], smoothed: raw)
            track.lastHeard = max(track.lastHeard, reading.lastHeard)
            let entry = retreatSpeed(of: raw, at: time, after: track) > maximumSpeed ? track.history.first ?? raw : raw
            track.raw.insert(raw, at: 0)
            track.times.insert(time, at: 0)
            if track.raw.count > 10 {
                track.raw.removeLast()
                track.times.removeLast()
            }
            track.history.insert(entry, at: 0)
            if track.history.count > smoothingSamples {
                track.history.removeLast(track.history.count - smoothingSamples)
            }
            var runningMinimum = raw
            var total = 0.0
            for value in track.history {
                runningMinimum = min(runningMinimum, value)
                total += runningMinimum
            }
            track.smoothed = min(raw, total / Double(track.history.count))
            belief.tracks[reading.node.id] = track
        }
        belief.tracks = belief.tracks.filter { time - $0.value.lastHeard <= timeout }
        belief.current = contest(belief, readings: readings)
    }

    /// How fast a distance of `distance` at `time` moves away from the node, metres per second: the speed from the
    /// last distance read when that is an approach (negative), else the fastest retreat from any of the last ten.
    private func retreatSpeed(of distance: Double, at time: Double, after track: NodeTrack) -> Double {
        var fastest = -Double.infinity
        for (index, (old, then)) in zip(track.raw, track.times).enumerated() where time > then {
            let speed = (distance - old) / (time - then)
            if index == 0, speed < 0 { return speed }
            fastest = max(fastest, speed)
        }
        return fastest
    }

    /// The node the device is at after one round of the contest: the current one unless a challenger wins.
    private func contest(_ belief: Belief, readings: [NodeReading]) -> String? {
        var current = belief.current.flatMap { belief.tracks[$0] }
        // Challengers in order of strength now, then the rest by id: a fixed order, since the first valid challenger
        // takes an empty place at once.
        let heard = readings.map(\.node.id)
        let rest = belief.tracks.keys.filter { !heard.contains($0) }.sorted()
        for id in heard + rest {
            guard let challenger = belief.tracks[id], challenger.node.id != current?.node.id else { continue }
            guard let incumbent = current else {
                if challenger.smoothed <= maximumRadius { current = challenger }
                continue
            }
            guard challenger.smoothed <= maximumRadius, challenger.smoothed < incumbent.smoothed else { continue }
            let a = challenger.smoothed
            let b = incumbent.smoothed
            let margin = abs(a - b) / ((a + b) / 2)
            if challenger.history.count > 3, let newestMaximum = challenger.history.prefix(5).max(),
                let oldestMinimum = incumbent.history.prefix(5).min(), newestMaximum < oldestMinimum, margin > 0.15
            {
                current = challenger
                continue
            }
            if margin >= 0.18 { current = challenger }
        }
        return current?.node.id
    }

    func estimate(from belief: Belief) -> Result<Estimate, NoFix> {
        guard let id = belief.current, let track = belief.tracks[id] else {
            return .failure(NoFix(.notHeard, "no node heard within \(maximumRadius) m"))
        }
        return .success(answer(at: track.node, distance: track.smoothed))
    }

    private func answer(at node: Node, distance: Double) -> Estimate {
        Estimate(
            position: node.position, floor: node.floor, accuracy: max(1, distance.isFinite ? distance : 1),
            confidence: 0.25)
    }
}
