import Foundation
import IndoorModel
import IndoorRanging

/// The one engine every front end uses: takes sightings, keeps per-device filtered RSSI, answers fixes.
///
/// Deterministic: time comes only from the sightings and from the `time` asked about. Node ids are
/// interned at `init`; each device holds a slot with at most ``Configuration/maximumNodesPerDevice`` (node, ``RSSIFilter``)
/// entries, reused when the device is forgotten, so ingesting a sighting does not allocate once the device and
/// node are known. Devices not heard for
/// ``Configuration/deviceExpiry`` seconds are forgotten, and at most ``deviceLimit`` are kept (``Configuration/maximumDevices``,
/// or fewer for a particle filter whose clouds would hold more than ``Configuration/maximumBeliefBytes``).
/// Every fix passes the sanity guard ``Configuration/plausibleArea``; with ``Configuration/tracking`` set each device
/// also keeps a ``PositionTrack`` fed as its sightings arrive. A node's RSSI at 1 m follows the stack's one rule,
/// ``RSSIAtOneMeter`` (its own calibration, else a plausible advertised power, else the calibration's pooled value), and
/// proximity classes come from ``Configuration/proximity`` (`Proximity.Thresholds`), as in geofencing's ranger.
public struct PositioningEngine: Sendable {
    /// Tuning of the engine.
    public struct Configuration: Hashable, Sendable {
        /// Readings older than this many seconds are stale and ignored.
        public var window: Double
        /// The per-(device, node) RSSI filter. An engine that ``EngineFactory`` makes for `auto` or `particle-filter`
        /// reads the filter that method was measured with instead (``EngineFactory/engine(_:)``).
        public var filter: RSSIFilter.Kind
        /// A second per-(device, node) RSSI filter, read by ``answer``'s share of k-NN fingerprints (``SurveyedAnswer``);
        /// `nil` (the default): the answer reads ``filter``. ``EngineFactory`` sets it for `auto` (and
        /// `particle-filter`) with a survey, whose particle filter reads a 1 s mean, to its own ``filter``: the
        /// survey's replays then also try k-NN through it, the filter the `knn` baseline reads.
        public var answerFilter: RSSIFilter.Kind? = nil
        /// How filtered RSSI becomes distance.
        public var distanceModel: DistanceModel
        /// Distance models for particular devices (by device id), for example a phone model's own curve fit.
        public var deviceModels: [String: DistanceModel]
        /// Thresholds of ``Proximity`` classes, metres.
        public var proximity: Proximity.Thresholds
        /// A device not heard for this many seconds is forgotten.
        public var deviceExpiry: Double
        /// The most devices kept; beyond it the least recently heard half is forgotten.
        public var maximumDevices: Int
        /// The most bytes the beliefs of a ``SequentialPositioningMethod`` may hold (a particle filter's clouds: about
        /// 48 bytes per particle per device): the engine keeps at most this over the method's
        /// ``SequentialPositioningMethod/bytesPerBelief`` devices when that is fewer than ``maximumDevices``
        /// (``PositioningEngine/deviceLimit``). Default 1 GiB: 22 369 devices of 1000 particles.
        public var maximumBeliefBytes: Int
        /// The most nodes tracked per device; a new node replaces the one heard longest ago.
        public var maximumNodesPerDevice: Int
        /// Positions this far outside the heard nodes' area are refused (``PlausibleArea/unlimited`` to keep all).
        public var plausibleArea: PlausibleArea
        /// When set, each device's fixes are smoothed by a ``PositionTrack`` with this tuning, and every ``Fix/method``
        /// is the method's name followed by `+track` (``MethodCatalog/trackSuffix``); `nil` (default): no tracking.
        public var tracking: PositionTrack.Configuration?
        /// Seconds: a sighting further than this from the engine's present (``PositioningEngine/clock``) drives only
        /// its own device's state and does not move the present, unless a second device confirms the new time
        /// (``DataClock``). Default 3600.
        public var horizon: Double
        /// Particles per device of a particle filter the engine is built with by ``MethodCatalog`` (`auto` with a
        /// survey, `particle-filter`): more follow a device more surely and cost proportionally more per update
        /// (``ParticleFilter/Configuration/particles``). Default 1000; 10…100 000.
        public var particles: Int
        /// The seed of that particle filter's generators (``ParticleFilter/Configuration/seed``, mixed with each
        /// device's id). Default 0; another seed gives other fixes, as good on average: comparing seeds shows how much
        /// of a difference between two runs is the filter's own chance.
        public var particleSeed: UInt64
        /// Other values for the default's parameters chosen on data (``DefaultTuning``; every default unless set): for
        /// experiments that choose them again.
        public var defaultTuning = DefaultTuning()
        /// Self-calibration from node-to-node links (``NodeLinkCalibration``): without a survey and without a
        /// calibration that knows the path loss, an engine built by ``MethodCatalog`` or ``EngineFactory`` fits each
        /// node's path loss from sightings of one node by another and rebuilds its method over the fit; `nil` turns it
        /// off (links are still recognised, counted and kept from making devices). Default on
        /// (docs/notes/self-calibration.md).
        public var selfCalibration: NodeLinkCalibration.Configuration? = NodeLinkCalibration.Configuration()

        /// - Parameters:
        ///   - window: Seconds after which a node's readings are stale (default 5).
        ///   - filter: The RSSI filter (default: a Kalman filter following a walking device).
        ///   - distanceModel: RSSI to distance (default log-distance with each node's calibration).
        ///   - deviceModels: Per-device distance models, by device id.
        ///   - proximity: Proximity thresholds (default 0.5 m and 3 m).
        ///   - deviceExpiry: Seconds after which a silent device is forgotten (default 60).
        ///   - maximumDevices: Memory bound on devices (default 100 000).
        ///   - maximumNodesPerDevice: Memory bound on nodes tracked per device (default 32).
        ///   - maximumBeliefBytes: Memory bound on a sequential method's beliefs (default 1 GiB).
        ///   - plausibleArea: The sanity guard on every fix (default: 10 m or half the heard nodes' box diagonal).
        ///   - tracking: The position tracker's tuning, or `nil` for no tracking (default).
        ///   - horizon: Seconds a sighting may lie from the engine's present without a second device agreeing
        ///     (default 3600; see ``DataClock``).
        ///   - particles: Particles per device of a catalogued particle filter (default 1000; 10…100 000).
        ///   - particleSeed: The seed of its generators (default 0).
        public init(
            window: Double = 5, filter: RSSIFilter.Kind = .kalman(processNoise: 4, measurementNoise: 16),
            distanceModel: DistanceModel = .logDistance, deviceModels: [String: DistanceModel] = [:],
            proximity: Proximity.Thresholds = .standard, deviceExpiry: Double = 60, maximumDevices: Int = 100_000,
            maximumNodesPerDevice: Int = 32, plausibleArea: PlausibleArea = PlausibleArea(),
            tracking: PositionTrack.Configuration? = nil, horizon: Double = 3600, particles: Int = 1000,
            particleSeed: UInt64 = 0, maximumBeliefBytes: Int = 1 << 30
        ) {
            self.maximumBeliefBytes = max(1, maximumBeliefBytes)
            self.window = window.isFinite && window > 0 ? window : 5
            self.filter = filter
            self.distanceModel = distanceModel
            self.deviceModels = deviceModels
            self.proximity = proximity
            self.deviceExpiry = deviceExpiry.isFinite && deviceExpiry > 0 ? deviceExpiry : 60
            self.maximumDevices = max(1, maximumDevices)
            self.maximumNodesPerDevice = max(1, maximumNodesPerDevice)
            self.plausibleArea = plausibleArea
            self.tracking = tracking
            self.horizon = horizon.isFinite && horizon > 0 ? horizon : 3600
            self.particles = min(max(particles, 10), 100_000)
            self.particleSeed = particleSeed
        }
    }

    /// The method fixes are made with (rebuilt over the fitted path loss by self-calibration: ``linkCalibration``).
    public private(set) var method: any PositioningMethod
    /// ``method`` when it keeps a belief per device (a ``SequentialPositioningMethod``), else `nil`.
    private var sequential: (any SequentialPositioningMethod)?
    /// The name each ``Fix/method`` carries: the method's name (or the estimator it handed the readings to,
    /// ``Estimate/method``), followed by `+track` when the engine tracks.
    public let methodName: String
    /// What becomes of the method's answer before it is a fix: k-NN mixed in (with a survey) and the weighted centroid
    /// where the method gives no plausible position (``SurveyedAnswer``; `auto`, with a survey or without); `nil`:
    /// the method's answer as it is.
    public var answer: SurveyedAnswer?
    /// The most devices the engine keeps: ``Configuration/maximumDevices``, or fewer for a sequential method whose
    /// beliefs would otherwise hold more than ``Configuration/maximumBeliefBytes``. Beyond it the least recently heard
    /// half is forgotten.
    public let deviceLimit: Int
    /// The tracker's tuning (``Configuration/tracking``), `nil` without tracking.
    private let tracking: PositionTrack.Configuration?
    /// The engine's tuning.
    public let configuration: Configuration
    /// Path loss per node and receiver offsets per device (with self-calibration, the fit from node-to-node links
    /// over the calibration the engine was made with).
    public private(set) var calibration: Calibration
    private let nodes: [Node]
    private let nodeIndex: [String: Int]
    private let beaconIndex: [BeaconID: Int]
    /// Each node's own calibration (from ``calibration`` or the node), `nil` when it has none.
    private var ownCalibrations: [NodeCalibration?]
    private var logRangeVariances: [Double]
    /// Sightings of one node by another (``NodeLinkCalibration``): never a device's; fitted when
    /// ``selfCalibration`` is set.
    public internal(set) var linkCalibration: NodeLinkCalibration
    /// How the method is rebuilt over a fitted calibration, and what was last applied; `nil`: links are recognised and
    /// counted but not fitted.
    var selfCalibration: SelfCalibration?
    private let emptyFilter: RSSIFilter
    /// A fresh ``Configuration/answerFilter``, `nil` without one.
    private let emptyAnswerFilter: RSSIFilter?
    private let hasOffsets: Bool
    /// Device id → slot in ``states``; freed slots are reused, their filter arrays kept.
    private var slots: [String: Int] = [:]
    private var states: [DeviceState] = []
    private var freeSlots: [Int] = []
    /// The device of the previous sighting and its slot: sightings often come in runs per device.
    private var lastDevice: String?
    private var lastSlot = 0
    private var lastSweep = -Double.infinity
    /// The engine's present: what expires devices. One device's clock cannot move it by more than
    /// ``Configuration/horizon`` (``DataClock``); ``DataClock/outliers`` counts the sightings too far from it.
    public package(set) var clock: DataClock
    /// How many expiry sweeps (each a pass over the devices) have run; tests check it stays small.
    private(set) var sweeps = 0
    /// Places fixes on WGS84, when the engine was made from a venue with an anchor.
    public private(set) var anchor: GeoAnchor?

    /// One device: the nodes it hears (indices) and their filters, in parallel arrays of bounded size.
    private struct DeviceState: Sendable {
        var nodes: [Int] = []
        var filters: [RSSIFilter] = []
        /// Each entry's ``Configuration/answerFilter``, parallel to ``filters``; empty without one.
        var answerFilters: [RSSIFilter] = []
        /// The plausible power at 1 m (dBm, ``RSSIAtOneMeter/advertised(_:)``) last advertised with each
        /// entry's sightings; NaN when none.
        var advertised: [Double] = []
        var lastHeard: Double
        /// The engine's present (``PositioningEngine/clock``) when the device was last heard, seconds: what it
        /// expires by, so a device whose own clock is far off still expires after ``Configuration/deviceExpiry``
        /// seconds of silence, and never because of its own timestamps.
        var seenAt: Double
        /// The device's position track, when the engine tracks.
        var track: PositionTrack?
        /// The sighting time from which the next fix is fed to the track.
        var nextTrack = -Double.infinity
        /// The belief of a ``SequentialPositioningMethod`` about the device, `nil` before its first update.
        var belief: (any Sendable)?
        /// The sighting time from which the next update of ``belief`` is due.
        var nextBelief = -Double.infinity

        @inline(__always)
        mutating func record(
            node: Int, dBm: Double, txPower: Double?, at time: Double, fresh: RSSIFilter, freshAnswer: RSSIFilter?,
            capacity: Int
        ) {
            lastHeard = max(lastHeard, time)
            for entry in nodes.indices where nodes[entry] == node {
                filters[entry].add(dBm: dBm, at: time)
                if answerFilters.indices.contains(entry) { answerFilters[entry].add(dBm: dBm, at: time) }
                if let power = RSSIAtOneMeter.advertised(txPower) { advertised[entry] = power }
                return
            }
            let power = RSSIAtOneMeter.advertised(txPower) ?? .nan
            var filter = fresh
            filter.add(dBm: dBm, at: time)
            var answerFilter = freshAnswer
            answerFilter?.add(dBm: dBm, at: time)
            if nodes.count < capacity {
                if nodes.isEmpty {
                    nodes.reserveCapacity(min(capacity, 16))
                    filters.reserveCapacity(min(capacity, 16))
                    advertised.reserveCapacity(min(capacity, 16))
                }
                nodes.append(node)
                filters.append(filter)
                if let answerFilter { answerFilters.append(answerFilter) }
                advertised.append(power)
                return
            }
            var oldest = 0
            for entry in filters.indices
            where (filters[entry].lastTime ?? -.infinity) < (filters[oldest].lastTime ?? -.infinity) {
                oldest = entry
            }
            nodes[oldest] = node
            filters[oldest] = filter
            if let answerFilter, answerFilters.indices.contains(oldest) { answerFilters[oldest] = answerFilter }
            advertised[oldest] = power
        }

        mutating func clear() {
            nodes.removeAll(keepingCapacity: true)
            filters.removeAll(keepingCapacity: true)
            answerFilters.removeAll(keepingCapacity: true)
            advertised.removeAll(keepingCapacity: true)
            track = nil
            nextTrack = -.infinity
            belief = nil
            nextBelief = -.infinity
        }
    }

    /// - Parameters:
    ///   - nodes: The fixed radios, with positions in metres in the venue frame. Later duplicates of an id are
    ///     ignored; a node with a non-finite coordinate is left out (its sightings count as an unknown node's), so it
    ///     cannot turn every fix that hears it into an `invalidInput` ``NoFix``.
    ///   - method: How readings become positions.
    ///   - configuration: Filters, distance model, expiry, tracking.
    ///   - calibration: Per-node path loss and per-device offsets (default: each node's own or typical).
    public init(
        nodes: [Node], method: any PositioningMethod, configuration: Configuration = Configuration(),
        calibration: Calibration = .uncalibrated
    ) {
        self.method = method
        self.sequential = method as? any SequentialPositioningMethod
        let beliefBytes = self.sequential.map { max(1, $0.bytesPerBelief) }
        self.deviceLimit = min(
            configuration.maximumDevices, max(1, beliefBytes.map { configuration.maximumBeliefBytes / $0 } ?? .max))
        self.tracking = configuration.tracking
        self.methodName = configuration.tracking == nil ? method.name : method.name + MethodCatalog.trackSuffix
        self.configuration = configuration
        self.calibration = calibration
        var unique: [Node] = []
        var byID: [String: Int] = [:]
        var byBeacon: [BeaconID: Int] = [:]
        for node in nodes
        where byID[node.id] == nil && node.position.x.isFinite && node.position.y.isFinite && node.position.z.isFinite {
            byID[node.id] = unique.count
            if let beacon = node.beacon, byBeacon[beacon] == nil { byBeacon[beacon] = unique.count }
            unique.append(node)
        }
        self.nodes = unique
        self.nodeIndex = byID
        self.beaconIndex = byBeacon
        let own = unique.map { calibration.nodes[$0.id] ?? $0.calibration }
        self.ownCalibrations = own
        self.logRangeVariances = Self.logRangeVariances(own, calibration: calibration)
        self.linkCalibration = NodeLinkCalibration(
            nodes: unique, prior: calibration.pooled,
            configuration: configuration.selfCalibration ?? NodeLinkCalibration.Configuration())
        self.hasOffsets = !calibration.deviceOffsets.isEmpty
        self.emptyFilter = RSSIFilter(configuration.filter, expiry: configuration.window)
        self.emptyAnswerFilter = configuration.answerFilter.map { RSSIFilter($0, expiry: configuration.window) }
        self.clock = DataClock(horizon: configuration.horizon)
    }

    /// Each node's log-range variance: log-normal shadowing of the calibration's σ with the node's exponent (an
    /// advertised power keeps the pooled exponent, so each node's exponent is known here).
    private static func logRangeVariances(_ own: [NodeCalibration?], calibration: Calibration) -> [Double] {
        own.map {
            LogDistance.logRangeVariance(
                sigma: calibration.shadowingSigma, exponent: ($0 ?? calibration.pooled).pathLossExponent)
        }
    }

    /// Makes fixes with `method` over `calibration` from now on (self-calibration's fit): the nodes' ranges follow the
    /// new path loss at once, the devices' filters and beliefs are kept. Device offsets are not changed.
    mutating func replace(calibration: Calibration, method: any PositioningMethod) {
        self.calibration = calibration
        self.method = method
        self.sequential = method as? any SequentialPositioningMethod
        let own = nodes.map { calibration.nodes[$0.id] ?? $0.calibration }
        ownCalibrations = own
        logRangeVariances = Self.logRangeVariances(own, calibration: calibration)
    }

    /// An engine over the nodes of `venue`; its fixes carry WGS84 coordinates when the venue has an anchor.
    public init(
        venue: Venue, method: any PositioningMethod, configuration: Configuration = Configuration(),
        calibration: Calibration = .uncalibrated
    ) {
        self.init(nodes: venue.nodes, method: method, configuration: configuration, calibration: calibration)
        self.anchor = venue.anchor
    }

    /// The number of devices currently remembered.
    public var deviceCount: Int { slots.count }

    /// The node a sighting refers to, if the engine knows it.
    public func node(for source: SightingSource) -> Node? {
        index(of: source).map { nodes[$0] }
    }

    @inline(__always)
    private func index(of source: SightingSource) -> Int? {
        switch source {
        case .node(let id): nodeIndex[id]
        case .beacon(let beacon): beaconIndex[beacon] ?? nodeIndex[beacon.text]
        }
    }

    /// Takes one sighting. Sightings of unknown nodes or with non-finite RSSI or time are ignored.
    ///
    /// Time: each device's own sightings drive its filters and track; a sighting more than
    /// ``Configuration/deviceExpiry`` seconds before the device's latest (its clock was set back, or its latest
    /// was stamped ahead) restarts the device from it. Devices expire by the engine's present (``clock``): a
    /// device is forgotten once the present has moved ``Configuration/deviceExpiry`` seconds past the moment it
    /// was last heard. A sighting further than ``Configuration/horizon`` from the present (counted in
    /// ``DataClock/outliers``) is used for its own device but does not move the present, unless a second device
    /// confirms the new time; then devices stamped on the old time line are forgotten.
    /// - Returns: whether the sighting was used.
    ///
    /// A sighting of one node by another (its device `node:<node id>` or a node's beacon identity: a link,
    /// ``NodeLinkCalibration``) makes no device: it goes to ``linkCalibration`` (and, with self-calibration, to the
    /// next fit), and counts as used when the link was usable.
    @discardableResult
    public mutating func ingest(_ sighting: Sighting) -> Bool {
        if linkCalibration.isNodeDevice(sighting.device) { return ingestLink(sighting) }
        guard sighting.rssi.isFinite, sighting.time.isFinite, let node = index(of: sighting.source) else {
            return false
        }
        let time = sighting.time
        let rssi = hasOffsets ? sighting.rssi - calibration.offset(device: sighting.device) : sighting.rssi
        // A non-finite offset (a calibration built in code) or an overflowing difference: not a usable sighting.
        guard rssi.isFinite else { return false }
        switch clock.observe(time, source: sighting.device) {
        case .outlier:
            break
        case .jumped:
            // Time moved on (or back) by more than the horizon: devices stamped on the old time line go.
            sweep(byOwnTime: true)
        case .accepted:
            // Sweep once per expiry period of the present.
            if clock.present > lastSweep + configuration.deviceExpiry { sweep(byOwnTime: false) }
        }
        let slot: Int
        if let lastDevice, lastDevice == sighting.device {
            slot = lastSlot
        } else if let known = slots[sighting.device] {
            slot = known
        } else {
            if slots.count >= deviceLimit { evictOldestHalf() }
            slot = allocateSlot(device: sighting.device, at: time)
        }
        states[slot].seenAt = clock.present
        lastDevice = sighting.device
        lastSlot = slot
        if time < states[slot].lastHeard - configuration.deviceExpiry {
            // The device's clock went back further than the expiry: what it heard on the old time line is void.
            states[slot].clear()
            states[slot].lastHeard = time
        }
        if let tracking, time > states[slot].nextTrack {
            feedTrack(slot: slot, device: sighting.device, at: time, configuration: tracking)
        }
        if let sequential, time > states[slot].nextBelief {
            feedBelief(of: sequential, slot: slot, device: sighting.device, at: time)
        }
        states[slot].record(
            node: node, dBm: rssi, txPower: sighting.txPower, at: time, fresh: emptyFilter,
            freshAnswer: emptyAnswerFilter, capacity: configuration.maximumNodesPerDevice)
        return true
    }

    /// Feeds the track of the device in `slot` its fix at the step time that a sighting at `time` has just passed,
    /// from the sightings before it (causal; the first step comes ``PositionTrack/Configuration/step`` seconds after
    /// the device is first heard, so a single burst of sightings never starts a track).
    private mutating func feedTrack(
        slot: Int, device: String, at time: Double, configuration settings: PositionTrack.Configuration
    ) {
        let due = states[slot].nextTrack
        guard due.isFinite else {
            states[slot].nextTrack = time + settings.step
            return
        }
        states[slot].nextTrack = max(due + settings.step, time)
        let current = fixReadings(slot: slot, device: device, at: due)
        guard !current.isEmpty,
            case .success(let estimate) = estimate(slot: slot, device: device, readings: current, at: due),
            Self.nonFinite(estimate, method: method.name) == nil,
            configuration.plausibleArea.check(estimate.position, readings: current) == nil
        else { return }
        if states[slot].track == nil {
            states[slot].track = PositionTrack(estimate, at: due, configuration: settings)
        } else {
            states[slot].track?.update(with: estimate, at: due, configuration: settings)
        }
    }

    /// Updates the belief of the device in `slot` at the step time that a sighting at `time` has just passed, from the
    /// sightings before it (causal; the first update comes one ``SequentialPositioningMethod/step`` after the device is
    /// first heard, so that its first belief rests on a full step of sightings).
    private mutating func feedBelief<Method: SequentialPositioningMethod>(
        of method: Method, slot: Int, device: String, at time: Double
    ) {
        let due = states[slot].nextBelief
        guard due.isFinite else {
            states[slot].nextBelief = time + method.step
            return
        }
        states[slot].nextBelief = max(due + method.step, time)
        let current = readings(slot: slot, device: device, at: due)
        guard !current.isEmpty else { return }
        if var belief = Method.belief(in: states[slot].belief) {
            // Emptied first so that the belief's storage is not shared while it is updated in place.
            states[slot].belief = nil
            method.update(&belief, readings: current, at: due)
            states[slot].belief = belief
        } else {
            states[slot].belief = method.start(device: device, readings: current, at: due)
        }
    }

    /// The method's estimate for the device in `slot` at `time` from its `current` readings: a sequential method's
    /// belief moved on to `time`, any other method's answer from the readings alone. What fixes and the track are fed.
    private func estimate(slot: Int, device: String, readings current: [NodeReading], at time: Double)
        -> Result<Estimate, NoFix>
    {
        guard let sequential else { return method.estimate(from: current) }
        return sequentialEstimate(of: sequential, slot: slot, device: device, readings: current, at: time)
    }

    /// The estimate of a sequential method at `time`: the device's belief (or one started now) moved on to `time` and
    /// weighed by `current`, on a copy.
    private func sequentialEstimate<Method: SequentialPositioningMethod>(
        of method: Method, slot: Int, device: String, readings current: [NodeReading], at time: Double
    ) -> Result<Estimate, NoFix> {
        guard var belief = Method.belief(in: states[slot].belief) else {
            return method.estimate(from: current)
        }
        method.update(&belief, readings: current, at: time)
        return method.estimate(from: belief)
    }

    private mutating func allocateSlot(device: String, at time: Double) -> Int {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            states[slot].lastHeard = time
        } else {
            slot = states.count
            states.append(DeviceState(lastHeard: time, seenAt: clock.present))
        }
        slots[device] = slot
        return slot
    }

    /// Lets `device` go at once: its readings, track and belief (what ``Configuration/deviceExpiry`` does for a device
    /// not heard for that long, for a caller that knows the device is gone). One heard again starts afresh.
    public mutating func forget(device: String) {
        guard let slot = slots.removeValue(forKey: device) else { return }
        states[slot].clear()
        freeSlots.append(slot)
        if lastDevice == device { lastDevice = nil }
    }

    private mutating func release(where expired: (DeviceState) -> Bool) {
        var kept: [String: Int] = [:]
        for (device, slot) in slots {
            if expired(states[slot]) {
                states[slot].clear()
                freeSlots.append(slot)
            } else {
                kept[device] = slot
            }
        }
        slots = kept
        lastDevice = nil
    }

    /// Takes sightings in order.
    /// - Returns: how many were used.
    @discardableResult
    @inlinable
    public mutating func ingest(_ sightings: some Sequence<Sighting>) -> Int {
        var used = 0
        for sighting in sightings where ingest(sighting) { used += 1 }
        return used
    }

    /// Forgets the devices last heard more than ``Configuration/deviceExpiry`` seconds before the present.
    ///
    /// - Parameter byOwnTime: After a jump of the present, the moments devices were heard are on the old time
    ///   line: then a device is judged by its own time, forgotten when stamped more than the expiry before the
    ///   present or more than ``Configuration/horizon`` after it, and kept (as heard now) otherwise.
    private mutating func sweep(byOwnTime: Bool) {
        sweeps += 1
        let now = clock.present
        lastSweep = now
        let cutoff = now - configuration.deviceExpiry
        if byOwnTime {
            let ahead = now + configuration.horizon
            release { $0.lastHeard < cutoff || $0.lastHeard > ahead }
            for slot in slots.values { states[slot].seenAt = now }
        } else {
            release { $0.seenAt < cutoff }
        }
    }

    private mutating func evictOldestHalf() {
        let times = slots.values.map { states[$0].seenAt }.sorted()
        guard !times.isEmpty else { return }
        let median = times[times.count / 2]
        release { $0.seenAt <= median }
    }

    /// The current readings of `device` at `time`, strongest first (ties by node id).
    ///
    /// A node counts when its filter has a value and was last heard within ``Configuration/window`` seconds of
    /// `time`: up to a window before it, or (a query about a moment just before the latest sightings) up to a
    /// window after it, never further ahead.
    public func readings(device: String, at time: Double) -> [NodeReading] {
        guard let slot = slots[device] else { return [] }
        return readings(slot: slot, device: device, at: time)
    }

    /// The readings a fix of `device` at `time` (``locate(device:at:)``) is made from, strongest first: those of
    /// ``readings(device:at:)``, and, where a fix rests on the readings alone, also the nodes a short filter has no
    /// value for but the engine's window still counts (see ``locate(device:at:)``).
    package func fixReadings(device: String, at time: Double) -> [NodeReading] {
        guard let slot = slots[device] else { return [] }
        return fixReadings(slot: slot, device: device, at: time)
    }

    /// - Parameters:
    ///   - holding: Whether a node whose filter has no value at `time` (a short mean whose samples are all older
    ///     than its own window) still counts, with the value the filter had when the node was last heard.
    ///   - answering: Whether the values are ``Configuration/answerFilter``'s (where the engine has one) rather than
    ///     ``Configuration/filter``'s.
    private func readings(
        slot: Int, device: String, at time: Double, holding: Bool = false, answering: Bool = false
    ) -> [NodeReading] {
        let state = states[slot]
        let filterArray =
            answering && state.answerFilters.count == state.nodes.count ? state.answerFilters : state.filters
        let model =
            configuration.deviceModels.isEmpty
            ? configuration.distanceModel : configuration.deviceModels[device] ?? configuration.distanceModel
        var result: [NodeReading] = []
        let cutoff = time - configuration.window
        let ahead = time + configuration.window
        filterArray.withUnsafeBufferPointer { filters in
            for entry in 0..<min(filters.count, state.nodes.count) {
                let index = state.nodes[entry]
                guard let last = filters[entry].lastTime, last >= cutoff, last <= ahead,
                    let rssi = filters[entry].value(at: time) ?? (holding ? filters[entry].value(at: last) : nil),
                    rssi.isFinite
                else { continue }
                let calibration = RSSIAtOneMeter.calibration(
                    own: ownCalibrations[index], advertised: state.advertised[entry], fallback: self.calibration.pooled)
                let distance = model.distance(rssi: rssi, calibration: calibration)
                let variance = distance * distance * logRangeVariances[index]
                // Beyond ~1e154 m (−5000 dBm, say) the variance overflows: such a node tells nothing, skip it
                // rather than have the solvers refuse the whole device.
                guard distance.isFinite, variance.isFinite else { continue }
                if result.isEmpty { result.reserveCapacity(8) }
                result.append(
                    NodeReading(
                        node: nodes[index], rssi: rssi, distance: distance, distanceVariance: variance,
                        lastHeard: last))
            }
        }
        result.sort { $0.rssi != $1.rssi ? $0.rssi > $1.rssi : $0.node.id < $1.node.id }
        return result
    }

    /// The fix of every remembered device that has one at `time`, sorted by device id.
    public func fixes(at time: Double) -> [Fix] {
        slots.keys.sorted().compactMap { device in try? locate(device: device, at: time).get() }
    }

    /// The proximity class of each node `device` hears at `time`, by node id.
    public func proximities(device: String, at time: Double) -> [String: Proximity] {
        var result: [String: Proximity] = [:]
        for reading in readings(device: device, at: time) {
            result[reading.node.id] = configuration.proximity.proximity(meters: reading.distance)
        }
        return result
    }

    /// The fix of `device` at `time` from what has been ingested so far.
    ///
    /// A method that carries a belief through time (the particle filter) answers its belief moved on to `time` and
    /// weighed by the filters' values then. A fix from the readings alone (any other method, a device whose belief
    /// has not started yet, or a moment when no filter has a value, such as the end of a scan whose beacons fell
    /// silent a few seconds before) counts every node heard within ``Configuration/window``, a short filter's node with
    /// its value when it was last heard (``fixReadings(device:at:)``).
    ///
    /// An estimate outside ``Configuration/plausibleArea`` of the nodes heard is refused as `noSolution`, unless an
    /// ``answer`` is set (`auto`): then the weighted centroid of the nodes heard answers instead, so a device heard
    /// within the window always gets a fix.
    public func locate(device: String, at time: Double) -> Result<Fix, NoFix> {
        guard let slot = slots[device] else {
            return .failure(NoFix(.notHeard, "device '\(device)' was not heard in the last \(configuration.window) s"))
        }
        let current = fixReadings(slot: slot, device: device, at: time)
        guard !current.isEmpty else {
            return .failure(NoFix(.notHeard, "device '\(device)' was not heard in the last \(configuration.window) s"))
        }
        var answered = estimate(slot: slot, device: device, readings: current, at: time)
        if let answer {
            // `current` holds each node's last value already, unless a belief made it the fresh values only.
            let held =
                sequential != nil && states[slot].belief != nil
                ? readings(slot: slot, device: device, at: time, holding: true) : current
            // k-NN reads the filter its fingerprints were made with: the answer filter, where the survey chose it.
            let knn =
                emptyAnswerFilter != nil && answer.knnShare > 0 && answer.knnReadsAnswerFilter
                ? readings(slot: slot, device: device, at: time, holding: true, answering: true) : held
            answered = answer.answer(
                answered, current: current, held: held, knn: knn, area: configuration.plausibleArea)
        }
        return answered.flatMap { estimate in
            if let invalid = Self.nonFinite(estimate, method: method.name) { return .failure(invalid) }
            // The answer checked its own (a fallback from the readings held is judged by those).
            if answer == nil, let implausible = configuration.plausibleArea.check(estimate.position, readings: current)
            {
                return .failure(implausible)
            }
            guard let tracking, var track = states[slot].track else {
                return .success(fix(estimate, device: device, at: time))
            }
            track.update(with: estimate, at: time, configuration: tracking)
            var tracked = track.estimate(z: estimate.position.z, confidence: estimate.confidence)
            tracked.method = estimate.method
            return .success(fix(tracked, device: device, at: time))
        }
    }

    /// The readings a fix of the device in `slot` at `time` is made from.
    ///
    /// A short filter (the particle filter's 1 s mean) has no value for a node heard a few seconds ago. A belief
    /// carried through time does best weighed by fresh values only: a walker's older readings would pull it back. A
    /// fix from the readings alone (a method without belief, a device whose belief has not started, the end of a scan
    /// whose beacons fell silent) would lose those nodes altogether, so there each node keeps its last value until the
    /// engine's ``Configuration/window`` makes it stale.
    private func fixReadings(slot: Int, device: String, at time: Double) -> [NodeReading] {
        if sequential != nil, states[slot].belief != nil {
            let fresh = readings(slot: slot, device: device, at: time)
            if !fresh.isEmpty { return fresh }
        }
        return readings(slot: slot, device: device, at: time, holding: true)
    }

    /// Why `estimate` cannot be a fix when a method (your own, say) answered a non-finite position, accuracy or
    /// confidence; `nil` when it can. The check holds even with ``PlausibleArea/unlimited``.
    private static func nonFinite(_ estimate: Estimate, method: String) -> NoFix? {
        let p = estimate.position
        guard
            !(p.x.isFinite && p.y.isFinite && p.z.isFinite && estimate.accuracy.isFinite
                && estimate.confidence.isFinite)
        else { return nil }
        return NoFix(
            .noSolution,
            "method '\(method)' answered a non-finite estimate (position \(p.x), \(p.y), \(p.z) m, accuracy \(estimate.accuracy) m)"
        )
    }

    private func fix(_ estimate: Estimate, device: String, at time: Double) -> Fix {
        Fix(
            time: time, device: device, position: estimate.position, floor: estimate.floor,
            accuracy: estimate.accuracy, confidence: estimate.confidence,
            method: estimate.method.map { tracking == nil ? $0 : $0 + MethodCatalog.trackSuffix } ?? methodName,
            coordinate: anchor?.coordinate(of: estimate.position.horizontal))
    }
}
