import Foundation
import IndoorModel

/// Self-calibration without a survey: fits each node's path loss from sightings of one node by another, online.
///
/// Where gateways hear each other (ESPresense nodes advertise; many beacons also receive), each such sighting is a
/// link between two nodes a known distance apart. A **link sighting** is a ``Sighting`` whose device is a node of the
/// venue, named `node:<node id>` (the id ESPresense gives another node's advertisement) or by the node's beacon
/// identity (`UUID/major/minor`, ``BeaconID/text``): the venue's own kind of sighting with a node in the device's
/// place (a gateway's report of another node's advertisement; a beacon that also receives reporting a beacon it
/// hears). Such a sighting never makes a device: the engine hands it here.
///
/// The model is the engine's own log-distance model with a term for each end of the link:
/// `rssi = L(node) + D(device node) − 10 · n · log10(d)` dB, `d` the 3-D distance between the two nodes in metres.
/// `L` is what positioning uses as the node's RSSI at 1 m (``NodeCalibration/rssiAtOneMeter``); `D` is the other
/// node's gain in the device's role, held at mean 0, so the venue's common level sits in `L`
/// (the located devices' own gains are each fix's receiver offset, as without self-calibration). The exponent `n` is
/// shared by the venue's nodes, or fitted per node with ``Configuration/perNodeExponent``.
///
/// Online and bounded: each link (an ordered pair of nodes) keeps the last ``Configuration/samplesPerLink`` RSSI
/// values in a ring, and its robust level is their median; at most ``Configuration/maximumLinks`` links are held
/// (beyond, the link heard longest ago is dropped) and a link not heard for ``Configuration/window`` seconds of data
/// time is forgotten. ``fit()`` solves the model over the links' medians by least squares with Huber weights and
/// weak priors (``Configuration``), in a fixed order: the same sightings give the same fit.
///
/// Links between nodes on different floors are not used (the slab's loss is not in the model).
/// - Complexity: ``add(_:)`` is O(1) (a dictionary look-up and a ring write); ``fit()`` is O(links × iterations).
public struct NodeLinkCalibration: Hashable, Sendable {
    /// Tuning of the fit.
    public struct Configuration: Hashable, Sendable {
        /// Seconds of data time after which a link not heard is forgotten (default 600).
        public var window: Double
        /// RSSI values each link keeps; its level is their median (default 32).
        public var samplesPerLink: Int
        /// The most links held (default 4096); beyond it the link heard longest ago is dropped.
        public var maximumLinks: Int
        /// Seconds of data time between two fits that an engine makes while links arrive (default 10).
        public var refitInterval: Double
        /// The fewest samples a link needs to count in a fit (default 3).
        public var minimumSamples: Int
        /// The fewest links a node needs (heard by it as the reporting node) for its fitted level to be used
        /// (default 2).
        public var minimumLinks: Int
        /// Whether each node gets its own path-loss exponent (`false`, default: one shared by every node; see
        /// docs/notes/self-calibration.md).
        public var perNodeExponent: Bool
        /// Standard deviation of a link's level about the model, dB: the scale of the priors below (default 5).
        public var linkSigma: Double
        /// Prior standard deviation of a node's level about the mean of the nodes' levels, dB (default 10).
        public var levelPriorSigma: Double
        /// Prior standard deviation of a node's gain as the device of a link about 0, dB (default 10); the gains'
        /// mean is held at 0 (the venue's common level is in the nodes' levels).
        public var gainPriorSigma: Double
        /// Prior standard deviation of the exponent about the pooled one (default 0.5).
        public var exponentPriorSigma: Double

        /// The defaults above; non-finite or out-of-range values take them.
        public init(
            window: Double = 600, samplesPerLink: Int = 32, maximumLinks: Int = 4096, refitInterval: Double = 10,
            minimumSamples: Int = 3, minimumLinks: Int = 2, perNodeExponent: Bool = false, linkSigma: Double = 5,
            levelPriorSigma: Double = 10, gainPriorSigma: Double = 10, exponentPriorSigma: Double = 0.5
        ) {
            func positive(_ value: Double, _ fallback: Double) -> Double {
                value.isFinite && value > 0 ? value : fallback
            }
            self.window = positive(window, 600)
            self.samplesPerLink = min(max(samplesPerLink, 1), 1024)
            self.maximumLinks = max(maximumLinks, 1)
            self.refitInterval = refitInterval.isFinite && refitInterval >= 0 ? refitInterval : 10
            self.minimumSamples = max(minimumSamples, 1)
            self.minimumLinks = max(minimumLinks, 1)
            self.perNodeExponent = perNodeExponent
            self.linkSigma = positive(linkSigma, 5)
            self.levelPriorSigma = positive(levelPriorSigma, 10)
            self.gainPriorSigma = positive(gainPriorSigma, 10)
            self.exponentPriorSigma = positive(exponentPriorSigma, 0.5)
        }
    }

    /// What became of one sighting offered to ``add(_:)``.
    public enum Outcome: Hashable, Sendable {
        /// Not a link sighting: its device is not a node. The engine treats it as a device's.
        case notALink
        /// A link sighting, kept.
        case used
        /// A link sighting that cannot be used (an unknown node at either end, a non-finite RSSI or time, the node
        /// hearing itself, two floors): ignored and counted in ``Counts``.
        case ignored
    }

    /// How many link sightings were used and ignored, and why.
    public struct Counts: Hashable, Sendable, Codable {
        /// Link sightings kept.
        public var used = 0
        /// Named a node the venue does not have (`node:<unknown id>`, or a source that is no node).
        public var unknownNode = 0
        /// A non-finite RSSI or time.
        public var invalid = 0
        /// A node hearing itself, two nodes at the same place, or on different floors.
        public var unusable = 0
        /// Links forgotten: not heard for the window, or dropped for the link cap.
        public var forgottenLinks = 0

        /// All link sightings ignored.
        public var ignored: Int { unknownNode + invalid + unusable }

        public init() {}
    }

    /// One ordered pair of nodes: its distance and the ring of its last RSSI values.
    struct Link: Hashable, Sendable {
        var log10Distance: Double
        var samples: [Float] = []
        var next = 0
        var lastTime: Double

        /// The median of the ring, dBm.
        var level: Double { NodeLinkCalibration.median(samples.map(Double.init)) }
    }

    /// The fit's tuning.
    public let configuration: Configuration
    /// The path loss before any link (the calibration's pooled model): the priors' centre.
    public let prior: NodeCalibration
    let nodes: [Node]
    private let byID: [String: Int]
    private let byBeacon: [String: Int]
    /// Links by `node index << 32 | device node index`.
    var links: [UInt64: Link] = [:]
    /// What was used and ignored.
    public private(set) var counts = Counts()

    /// A calibrator over `nodes` (later duplicates of an id and nodes with a non-finite coordinate are left out),
    /// its priors centred on `prior` (the calibration's pooled model, ``NodeCalibration/typical`` without one).
    public init(nodes: [Node], prior: NodeCalibration = .typical, configuration: Configuration = Configuration()) {
        var unique: [Node] = []
        var byID: [String: Int] = [:]
        var byBeacon: [String: Int] = [:]
        for node in nodes
        where byID[node.id] == nil && node.position.x.isFinite && node.position.y.isFinite && node.position.z.isFinite {
            byID[node.id] = unique.count
            if let beacon = node.beacon, byBeacon[beacon.text] == nil { byBeacon[beacon.text] = unique.count }
            unique.append(node)
        }
        self.nodes = unique
        self.byID = byID
        self.byBeacon = byBeacon
        self.prior = prior
        self.configuration = configuration
    }

    /// The prefix of a node's own advertisement as ESPresense reports it: `node:<id>`.
    public static let nodeDevicePrefix = "node:"

    /// Whether `device` names a node: `node:<anything>` (a node's advertisement, known or not), or a node's beacon
    /// identity. Such a device's sightings are links, never a located device's.
    public func isNodeDevice(_ device: String) -> Bool {
        device.hasPrefix(Self.nodeDevicePrefix) || byBeacon[device] != nil
    }

    /// The node `device` names, when it is one of the venue's.
    private func deviceNode(_ device: String) -> Int? {
        if device.hasPrefix(Self.nodeDevicePrefix) {
            return byID[String(device.dropFirst(Self.nodeDevicePrefix.count))]
        }
        return byBeacon[device]
    }

    private func sourceNode(_ source: SightingSource) -> Int? {
        switch source {
        case .node(let id): byID[id]
        case .beacon(let beacon): byBeacon[beacon.text] ?? byID[beacon.text]
        }
    }

    /// Takes one sighting: a link sighting is kept (or ignored and counted), any other is left alone.
    ///
    /// - Parameter keep: Whether a usable link's RSSI goes into its ring for ``fit()``; `false` only judges and counts
    ///   it (an engine that does not calibrate itself needs the counts, not the rings).
    @discardableResult
    public mutating func add(_ sighting: Sighting, keep: Bool = true) -> Outcome {
        guard isNodeDevice(sighting.device) else { return .notALink }
        guard let device = deviceNode(sighting.device), let node = sourceNode(sighting.source) else {
            counts.unknownNode += 1
            return .ignored
        }
        guard sighting.rssi.isFinite, sighting.time.isFinite else {
            counts.invalid += 1
            return .ignored
        }
        let key = UInt64(node) << 32 | UInt64(device)
        if links[key] == nil {
            let a = nodes[node]
            let b = nodes[device]
            let dx = a.position.x - b.position.x
            let dy = a.position.y - b.position.y
            let dz = a.position.z - b.position.z
            let distance = (dx * dx + dy * dy + dz * dz).squareRoot()
            guard node != device, a.floor == b.floor, distance >= 0.1 else {
                counts.unusable += 1
                return .ignored
            }
            if keep {
                if links.count >= configuration.maximumLinks { dropOldestLink() }
                links[key] = Link(log10Distance: log10(distance), lastTime: sighting.time)
            }
        }
        if keep {
            links[key]?.record(Float(sighting.rssi), at: sighting.time, capacity: configuration.samplesPerLink)
        }
        counts.used += 1
        return .used
    }

    /// Forgets the links not heard for ``Configuration/window`` seconds before `time`.
    public mutating func forget(before time: Double) {
        guard time.isFinite else { return }
        let cutoff = time - configuration.window
        let before = links.count
        links = links.filter { $0.value.lastTime >= cutoff }
        counts.forgottenLinks += before - links.count
    }

    private mutating func dropOldestLink() {
        guard let oldest = links.min(by: { ($0.value.lastTime, $0.key) < ($1.value.lastTime, $1.key) }) else { return }
        links[oldest.key] = nil
        counts.forgottenLinks += 1
    }

    /// The links held now.
    public var linkCount: Int { links.count }
}

extension NodeLinkCalibration.Link {
    /// Writes `value` into the ring (the oldest value goes once it holds `capacity`).
    mutating func record(_ value: Float, at time: Double, capacity: Int) {
        lastTime = max(lastTime, time)
        if samples.count < capacity {
            samples.append(value)
        } else {
            samples[next] = value
            next = (next + 1) % capacity
        }
    }
}
