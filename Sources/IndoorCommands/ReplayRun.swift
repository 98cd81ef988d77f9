import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorPositioning
import IndoorSession

/// One replay of a recording over a venue, through a ``IndoorSession/LocationSession``.
///
/// The session does all the work (ranging, positioning with its fallback, zones); this type only turns its
/// events into JSON Lines with sorted keys: `{"type":"fix",…}` (the ``Fix`` fields, with `latitude`/`longitude`
/// when the venue has an anchor) and `{"type":"zone",…}` (the ``ZoneEvent`` fields). When the sightings end,
/// each visit still open gets one `{"type":"zone","event":"open",…}` line (``ReplayOpenVisit``) at the last
/// sighting's time, in zone order then device.
public struct ReplayRun {
    public var venue: Venue
    /// A positioning method name from ``MethodCatalog/names``; `nil` for the session's default, with
    /// weighted-centroid answering where the default lacks the nodes or geometry (``FallbackPolicy``).
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

    /// The session configuration of this replay: an explicit method runs alone, the default has its fallback.
    /// - Throws: ``UnknownMethodError`` for a name the catalogue does not know.
    func configuration() throws -> SessionConfiguration {
        let selection = try method.map { name in
            guard let selection = MethodCatalog.Selection(name) else {
                throw UnknownMethodError(name: name, known: MethodCatalog.names)
            }
            return selection
        }
        return SessionConfiguration(
            venue: venue, method: selection ?? MethodCatalog.Selection(MethodCatalog.defaultMethod),
            fallback: method == nil ? .weightedCentroid : .none, fixInterval: interval,
            ranger: rssiFilter.ranger(nodes: venue.nodes))
    }

    /// Replays `sightings`, handing each output line (without a newline) to `write`.
    /// - Returns: Counts for a one-line summary.
    /// - Throws: ``UnknownMethodError`` for an unknown method (``MissingSurveyError`` for methods that need a
    ///   survey); encoding errors.
    @discardableResult
    public func run(_ sightings: [Sighting], write: (String) -> Void) throws -> ReplaySummary {
        var session = try LocationSession(try configuration())
        let encoder = JSONFormat.encoder()
        for event in session.ingest(sightings) {
            switch event {
            case .fix(let fix): write(try line(ReplayLine(type: "fix", payload: fix), encoder: encoder))
            case .zone(let zone): write(try line(ReplayLine(type: "zone", payload: zone), encoder: encoder))
            case .monitor, .peer: break
            }
        }
        var summary = ReplaySummary(session.statistics, fallbackMethod: session.fallbackMethod)
        if let end = sightings.lazy.map(\.time).filter(\.isFinite).max() {
            for visit in session.openVisits {
                let open = ReplayOpenVisit(visit, zones: venue.zones, at: end)
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
