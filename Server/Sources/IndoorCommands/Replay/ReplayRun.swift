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
/// sighting's time, in zone order then device. ``start()`` replays a stream of sightings (``ReplayStream``);
/// ``run(_:write:)`` replays an array.
public struct ReplayRun {
    public var venue: Venue
    /// A positioning method name from ``MethodCatalog/names``; `nil` for ``IndoorSession/SessionConfiguration/defaultMethod``, with
    /// weighted-centroid answering where a trilaterating method lacks the nodes or geometry (``FallbackPolicy``).
    public var method: String?
    /// Seconds of data time between fixes of one device; 0 locates after every sighting.
    public var interval: Double
    /// The RSSI filter behind the zones' beacon ranging.
    public var rssiFilter: ReplayRSSIFilter
    /// A calibration from `indoor calibrate` (per-node path loss, per-device offsets); `nil` for the nodes' own
    /// calibrations or the typical one.
    public var calibration: Calibration?
    /// Seconds of data time a streamed sighting waits for earlier ones (``ReplayReorderWindow``).
    public var reorderWindow: Double
    /// A site survey of the venue (sightings with truth): the default method then tracks over a radio map learned
    /// from it, and methods that need one (`knn`) can run; `nil` for none.
    public var survey: Recording?
    /// Whether positioning calibrates the nodes from their sightings of each other (node-to-node links) where it has
    /// no survey and no calibration that knows the path loss
    /// (``IndoorPositioning/PositioningEngine/Configuration/selfCalibration``); `false` leaves the links unfitted
    /// (they still make no device).
    public var selfCalibration: Bool
    /// Seconds of data time a device's first fix waits after its first sighting
    /// (``IndoorSession/SessionConfiguration/firstFixDelay``; 0 fixes at the first sighting).
    public var firstFixDelay: Double
    /// The most devices the session holds at once (``IndoorSession/SessionConfiguration/maximumDevices``).
    public var maximumDevices: Int

    /// The default ``reorderWindow``, seconds.
    public static let defaultReorderWindow = 10.0

    /// The methods replay offers without a survey, with their listed tracked variants (with `--survey`, every method
    /// of ``MethodCatalog/names``).
    public static var methodNames: [String] {
        MethodCatalog.listed.filter { !$0.needsSurvey }.map(\.name)
    }

    public init(
        venue: Venue, method: String? = nil, interval seconds: Double = 1,
        rssiFilter: ReplayRSSIFilter = .ema, calibration: Calibration? = nil,
        reorderWindow: Double = ReplayRun.defaultReorderWindow, survey: Recording? = nil, selfCalibration: Bool = true,
        firstFixDelay: Double = 0.5, maximumDevices: Int = 100_000
    ) {
        self.venue = venue
        self.method = method
        self.interval = seconds
        self.rssiFilter = rssiFilter
        self.calibration = calibration
        self.reorderWindow = reorderWindow
        self.survey = survey
        self.selfCalibration = selfCalibration
        self.firstFixDelay = firstFixDelay
        self.maximumDevices = maximumDevices
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
        var configuration = SessionConfiguration(
            venue: venue,
            method: selection,
            fallback: method == nil ? .weightedCentroid : .none, calibration: calibration, survey: survey,
            fixInterval: interval, firstFixDelay: firstFixDelay,
            ranger: rssiFilter.ranger(nodes: venue.nodes), maximumDevices: maximumDevices)
        if !selfCalibration { configuration.positioning.selfCalibration = nil }
        return configuration
    }

    /// A replay of sightings that arrive one by one (``ReplayStream``), through a session of this configuration.
    /// - Throws: ``UnknownMethodError`` for an unknown method (``MissingSurveyError`` for methods that need a
    ///   survey).
    public func start() throws -> ReplayStream {
        ReplayStream(
            session: try LocationSession(try configuration()), zones: venue.zones,
            window: ReplayReorderWindow(seconds: reorderWindow))
    }

    /// Replays `sightings` (sorted by time first, stably), handing each output line (without a newline) to `write`.
    /// - Returns: Counts for a one-line summary.
    /// - Throws: ``UnknownMethodError`` for an unknown method (``MissingSurveyError`` for methods that need a
    ///   survey); encoding errors.
    @discardableResult
    public func run(_ sightings: [Sighting], write: (String) -> Void) throws -> ReplaySummary {
        var replay = self
        replay.reorderWindow = .infinity
        var stream = try replay.start()
        for sighting in sightings {
            try stream.ingest(sighting, write: write)
        }
        return try stream.finish(write: write)
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
