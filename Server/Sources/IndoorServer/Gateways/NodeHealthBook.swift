import Foundation
import Synchronization

/// What the server knows of each node's health, by venue: when a sighting through it was last taken (from HTTP or
/// MQTT), its recent rate, and what the gateway itself last said (ESPresense's `online`/`offline` status and
/// telemetry). Kept in memory, by venue and node id, so it survives a venue's replacement; a restart starts afresh.
public final class NodeHealthBook: Sendable {
    /// Seconds without a sighting after which a node is `silent`.
    public let silentAfter: Double
    private let records = Mutex<[String: [String: Record]]>([:])

    struct Record: Sendable {
        /// Wall-clock time of the latest sighting taken through the node, Unix seconds.
        var lastHeard: Double?
        /// Sightings per minute, decayed with a one-minute time constant up to `rateTime`.
        var rate = 0.0
        var rateTime = 0.0
        /// What the gateway last said of itself (`online` / `offline`), and when.
        var reported: String?
        var reportedAt: Double?
        var telemetry: NodeTelemetry?
    }

    /// A book that calls a node `silent` after `silentAfter` seconds without a sighting.
    public init(silentAfter: Double = 60) {
        self.silentAfter = silentAfter
    }

    /// Notes `count` sightings through `node` of `venue` taken at `now` (Unix seconds).
    func heard(venue: String, node: String, count: Int, at now: Double) {
        records.withLock { all in
            var record = all[venue, default: [:]][node, default: Record()]
            record.lastHeard = max(record.lastHeard ?? now, now)
            record.rate = Self.decayed(record.rate, from: record.rateTime, to: now) + Double(count)
            record.rateTime = max(record.rateTime, now)
            all[venue, default: [:]][node] = record
        }
    }

    /// Notes what the gateway of `node` said of itself at `now`: `online` or `offline`.
    public func reported(venue: String, node: String, status: String, at now: Double) {
        records.withLock { all in
            all[venue, default: [:]][node, default: Record()].reported = status
            all[venue, default: [:]][node, default: Record()].reportedAt = now
        }
    }

    /// Notes a gateway's telemetry for `node`.
    public func telemetry(venue: String, node: String, _ telemetry: NodeTelemetry) {
        records.withLock { all in all[venue, default: [:]][node, default: Record()].telemetry = telemetry }
    }

    /// Forgets a deleted venue's nodes.
    func forget(venue: String) {
        _ = records.withLock { $0.removeValue(forKey: venue) }
    }

    /// The health of each of `nodes` of `venue` at `now` (Unix seconds), in the order given.
    ///
    /// A node is `offline` when its gateway last said so and no sighting came through it since; `silent` when no
    /// sighting came through it for ``silentAfter`` seconds (or none ever); `online` otherwise.
    public func health(venue: String, nodes: [String], at now: Double) -> [NodeHealth] {
        let known = records.withLock { $0[venue] ?? [:] }
        return nodes.map { id in
            let record = known[id] ?? Record()
            let status: NodeHealth.Status
            if record.reported == "offline", (record.lastHeard ?? -.infinity) <= (record.reportedAt ?? -.infinity) {
                status = .offline
            } else if let lastHeard = record.lastHeard, now - lastHeard <= silentAfter {
                status = .online
            } else {
                status = .silent
            }
            let rate = Self.decayed(record.rate, from: record.rateTime, to: now)
            return NodeHealth(
                id: id, status: status, lastHeard: record.lastHeard, sightingsPerMinute: (rate * 10).rounded() / 10,
                reported: record.reported, telemetry: record.telemetry)
        }
    }

    /// `rate` (per minute, a sum decayed with a 60 s time constant) moved on from `from` to `to`.
    private static func decayed(_ rate: Double, from: Double, to: Double) -> Double {
        guard to > from else { return rate }
        return rate * exp(-(to - from) / 60)
    }
}

/// One node's health, as `GET /v1/venues/{id}/nodes` gives it.
public struct NodeHealth: Hashable, Sendable, Encodable {
    /// `online` (heard lately), `silent` (nothing heard for a while, or ever) or `offline` (its gateway said so).
    public enum Status: String, Hashable, Sendable, Encodable {
        case online, silent, offline
    }

    /// The node's id.
    public var id: String
    public var status: Status
    /// When a sighting through the node was last taken, Unix seconds (wall clock); absent when never.
    public var lastHeard: Double?
    /// Sightings through the node per minute, lately (a one-minute moving rate).
    public var sightingsPerMinute: Double
    /// What the node's gateway last said of itself (`online` or `offline`), when it says (ESPresense).
    public var reported: String?
    /// The gateway's latest telemetry, when it sends any.
    public var telemetry: NodeTelemetry?
    /// What the venue's self-calibration fitted for the node, when positioning takes its level from a fit
    /// (``NodeSelfCalibration``); filled by ``VenueHub/nodeList(venue:)``.
    public var selfCalibration: NodeSelfCalibration?
}

/// What a gateway tells of itself (ESPresense's `…/telemetry`).
public struct NodeTelemetry: Hashable, Sendable, Encodable {
    /// Seconds since the gateway started.
    public var uptime: Double?
    /// Its firmware's version.
    public var firmware: String?
    /// The strength of its own Wi-Fi link, dBm.
    public var wifiRSSI: Double?
    /// Its IP address.
    public var ip: String?

    public init(uptime: Double? = nil, firmware: String? = nil, wifiRSSI: Double? = nil, ip: String? = nil) {
        self.uptime = uptime
        self.firmware = firmware
        self.wifiRSSI = wifiRSSI
        self.ip = ip
    }
}
