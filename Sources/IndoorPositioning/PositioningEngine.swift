import Foundation
import IndoorModel

/// The one engine every front end uses: takes sightings, keeps per-device state, answers fixes.
///
/// Deterministic: time comes only from the sightings and from the `time` asked about.
public struct PositioningEngine: Sendable {
    /// Tuning of the engine.
    public struct Configuration: Hashable, Sendable {
        /// Readings older than this many seconds are ignored.
        public var window: Double
        public init(window: Double = 5) {
            self.window = window
        }
    }

    public let method: any PositioningMethod
    public var configuration: Configuration
    private let nodesByID: [String: Node]
    private let nodesByBeacon: [BeaconID: Node]
    private var devices: [String: [String: [Reading]]] = [:]

    private struct Reading: Sendable {
        var time: Double
        var rssi: Double
    }

    /// - Parameters:
    ///   - nodes: The fixed radios, with positions in the venue frame.
    ///   - method: How readings become positions.
    public init(nodes: [Node], method: any PositioningMethod, configuration: Configuration = Configuration()) {
        self.method = method
        self.configuration = configuration
        var byID: [String: Node] = [:]
        var byBeacon: [BeaconID: Node] = [:]
        for node in nodes {
            byID[node.id] = node
            if let beacon = node.beacon { byBeacon[beacon] = node }
        }
        self.nodesByID = byID
        self.nodesByBeacon = byBeacon
    }

    /// The node a sighting refers to, if the engine knows it.
    public func node(for source: SightingSource) -> Node? {
        switch source {
        case .node(let id): nodesByID[id]
        case .beacon(let beacon): nodesByBeacon[beacon] ?? nodesByID[beacon.text]
        }
    }

    /// Takes one sighting. Sightings of unknown nodes or with non-finite RSSI are ignored.
    /// - Returns: whether the sighting was used.
    @discardableResult
    public mutating func ingest(_ sighting: Sighting) -> Bool {
        guard sighting.rssi.isFinite, sighting.time.isFinite, let node = node(for: sighting.source) else {
            return false
        }
        let cutoff = sighting.time - configuration.window
        devices[sighting.device, default: [:]][node.id, default: []].removeAll { $0.time < cutoff }
        devices[sighting.device, default: [:]][node.id, default: []].append(
            Reading(time: sighting.time, rssi: sighting.rssi))
        return true
    }

    /// The current readings of `device` at `time`, strongest first.
    public func readings(device: String, at time: Double) -> [NodeReading] {
        guard let perNode = devices[device] else { return [] }
        var result: [NodeReading] = []
        for (id, readings) in perNode {
            guard let node = nodesByID[id] else { continue }
            let recent = readings.filter { $0.time <= time && $0.time >= time - configuration.window }
            guard let last = recent.last else { continue }
            let rssi = recent.reduce(0) { $0 + $1.rssi } / Double(recent.count)
            let calibration = node.calibration ?? .typical
            let exponent = (calibration.rssiAtOneMeter - rssi) / (10 * calibration.pathLossExponent)
            let distance = pow(10, exponent)
            result.append(
                NodeReading(
                    node: node, rssi: rssi, distance: distance, distanceVariance: distance * distance * 0.25,
                    lastHeard: last.time))
        }
        return result.sorted { ($0.rssi, $1.node.id) > ($1.rssi, $0.node.id) }
    }

    /// The fix of `device` at `time` from what has been ingested so far.
    public func locate(device: String, at time: Double) -> Result<Fix, NoFix> {
        let current = readings(device: device, at: time)
        guard !current.isEmpty else {
            return .failure(NoFix(.notHeard, "device '\(device)' was not heard in the last \(configuration.window) s"))
        }
        return method.estimate(from: current).map { estimate in
            Fix(
                time: time, device: device, position: estimate.position, floor: estimate.floor,
                accuracy: estimate.accuracy, confidence: estimate.confidence, method: method.name)
        }
    }
}

