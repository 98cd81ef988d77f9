import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorPositioning

/// One replay of a recording over a venue: the positioning engine and the zones, in data time.
///
/// Sightings are taken in time order (stably). Each is ranged and given to the zones as beacon ranging;
/// then, if its device has no fix yet or its last fix is at least ``interval`` seconds older, the engine
/// locates the device at the sighting's time, and the fix is written and given to the zones. Output is
/// JSON Lines with sorted keys: `{"type":"fix",…}` (the ``Fix`` fields, with `latitude`/`longitude` when
/// the venue has an anchor) and `{"type":"zone",…}` (the ``ZoneEvent`` fields). When the sightings end,
/// each visit still open gets one `{"type":"zone","event":"open",…}` line (``ReplayOpenVisit``) at the last
/// sighting's time, in zone order then device.
public struct ReplayRun {
    public var venue: Venue
    /// A positioning method name from ``MethodCatalog/names``; `nil` for the catalogue's default, with
    /// weighted-centroid answering where the default lacks the nodes or geometry (see ``ReplayLocator``).
    public var method: String?
    /// Seconds of data time between fixes of one device; 0 locates after every sighting.
    public var interval: Double
    /// The RSSI filter behind the zones' beacon ranging.
    public var rssiFilter: ReplayRSSIFilter

    public init(
        venue: Venue, method: String? = nil, interval seconds: Double = 1,
        rssiFilter: ReplayRSSIFilter = .ema
    ) {
        self.venue = venue
        self.method = method
        self.interval = seconds
        self.rssiFilter = rssiFilter
    }

    /// Replays `sightings`, handing each output line (without a newline) to `write`.
    /// - Returns: Counts for a one-line summary.
    /// - Throws: ``UnknownMethodError`` for an unknown method (``MissingSurveyError`` for methods that need a
    ///   survey); encoding errors.
    @discardableResult
    public func run(_ sightings: [Sighting], write: (String) -> Void) throws -> ReplaySummary {
        var engine = try ReplayLocator(method: method, nodes: venue.nodes)
        var zones = ZoneEngine(zones: venue.zones, nodes: venue.nodes)
        var ranger = rssiFilter.ranger(nodes: venue.nodes)
        var lastFix: [String: Double] = [:]
        var summary = ReplaySummary()
        let encoder = JSONFormat.encoder()
        func emit(_ events: [ZoneEvent]) throws {
            for event in events {
                write(try line(ReplayLine(type: "zone", payload: event), encoder: encoder))
            }
            summary.zoneEvents += events.count
        }
        let ordered = sightings.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        for (_, sighting) in ordered {
            summary.sightings += 1
            if !engine.ingest(sighting) { summary.unknownNodes += 1 }
            try emit(zones.update(with: ranger.range(sighting)))
            if let last = lastFix[sighting.device], sighting.time - last < interval { continue }
            let outcome = engine.locate(device: sighting.device, at: sighting.time)
            switch outcome.result {
            case .failure(let noFix):
                summary.noFix[noFix.code.name, default: 0] += 1
            case .success(var fix):
                lastFix[sighting.device] = sighting.time
                fix.coordinate = venue.anchor?.coordinate(of: fix.position.horizontal)
                write(try line(ReplayLine(type: "fix", payload: fix), encoder: encoder))
                summary.fixes += 1
                if let code = outcome.fellBackBecause { summary.fallbacks[code.name, default: 0] += 1 }
                try emit(zones.update(with: fix))
            }
        }
        if let end = ordered.last?.element.time {
            for visit in zones.openVisits {
                let open = ReplayOpenVisit(visit, zones: zones.zones, at: end)
                write(try line(ReplayLine(type: "zone", payload: open), encoder: encoder))
                summary.openVisits += 1
            }
            summary.end = end
        }
        return summary
    }

    private func line(_ value: some Encodable, encoder: JSONEncoder) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A value's JSON object with a `type` field added.
struct ReplayLine<Payload: Encodable>: Encodable {
    var type: String
    var payload: Payload

    enum CodingKeys: String, CodingKey {
        case type
    }

    func encode(to encoder: any Encoder) throws {
        try payload.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
    }
}
