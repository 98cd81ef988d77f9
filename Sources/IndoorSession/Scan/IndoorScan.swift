import IndoorModel
import IndoorPositioning

/// One indoor scan as a pure state machine: sightings in for a duration of data time, one answer out.
///
/// The scan runs a ``LocationSession`` over its venue with a tracked method, so that its answer is the tracker's
/// state at the end of the scan (every sighting of the duration weighed in), not just the last snapshot. It starts
/// at the first sighting it is given and is complete when a sighting at or after `start + duration` arrives (that
/// sighting is not used): the duration is measured on the sightings' clock, so a recorded or simulated source gives
/// the same answer every run. ``IndoorScanner`` feeds it from any source, ends it early by a clock on the live path,
/// and asks ``result()`` at the end.
///
/// ```swift
/// let target = try ScanTarget(geofence: "hq", venues: [venue], knownLocation: nil)
/// var scan = try IndoorScan(target: target, duration: 10)
/// for sighting in sightings where scan.ingest(sighting) { break }
/// print(try scan.result().get().json())
/// ```
public struct IndoorScan: Sendable {
    /// How a scan positions and when it refuses to answer.
    public struct Options: Sendable {
        /// The positioning method; tracked when ``tracking`` is set. Default: the catalogue's default method.
        public var method: MethodCatalog.Method
        /// Whether fixes are smoothed by the tracker (default `true`: the answer is the tracker's state).
        public var tracking: Bool
        /// The fewest beacons heard in the last positioning window for an answer (default 2; 1 answers "near
        /// this beacon" with the fallback method).
        public var minimumBeacons: Int
        /// The device to locate; `nil` (default) for the device heard most often (a phone hears only itself).
        public var device: String?
        /// Engine tuning (window, filter, sanity guard).
        public var positioning: PositioningEngine.Configuration
        /// A calibration, or `nil` for the venue nodes' own.
        public var calibration: Calibration?
        /// The accuracy assumed for a known location that does not state one, metres (default 20).
        public var defaultSeedAccuracy: Double
        /// Site surveys (sightings with truth) by venue id: a scan of a venue that has one runs the method over what
        /// it learns from the survey (the default: a particle filter over a radio map). Empty by default.
        public var surveys: [String: Recording]

        /// Options; see the properties for the defaults.
        public init(
            method: MethodCatalog.Method = MethodCatalog.defaultMethod, tracking: Bool = true,
            minimumBeacons: Int = 2, device: String? = nil,
            positioning: PositioningEngine.Configuration = PositioningEngine.Configuration(),
            calibration: Calibration? = nil, defaultSeedAccuracy: Double = 20, surveys: [String: Recording] = [:]
        ) {
            self.method = method
            self.tracking = tracking
            self.minimumBeacons = max(1, minimumBeacons)
            self.device = device
            self.positioning = positioning
            self.calibration = calibration
            self.defaultSeedAccuracy =
                defaultSeedAccuracy.isFinite && defaultSeedAccuracy > 0 ? defaultSeedAccuracy : 20
            self.surveys = surveys
        }
    }

    /// The geofence and venue scanned, and the seed.
    public let target: ScanTarget
    /// Seconds of data time the scan listens.
    public let duration: Double
    /// The known location the scan was started with.
    public let knownLocation: DeviceLocation?
    /// The options.
    public let options: Options
    /// The data time of the first sighting, seconds; `nil` before it.
    public private(set) var start: Double?
    /// The data time of the latest sighting used, seconds.
    public private(set) var latest: Double?
    /// Whether the duration has passed on the sightings' clock.
    public private(set) var isComplete = false
    /// Whether a sighting at or after ``end`` arrived (the duration passed on the sightings' clock).
    private var reachedEnd = false

    private var session: LocationSession
    private let nodeIDs: Set<String>
    private let beaconIDs: Set<BeaconID>
    /// Sightings of the venue's nodes, per device.
    private var heard: [String: Int] = [:]
    /// The first fix of each device.
    private var firstFix: [String: Fix] = [:]

    /// A scan of `target` for `duration` seconds of data time.
    ///
    /// - Parameter session: The session the scan runs, as ``session(venue:options:)`` makes it for `target`'s venue
    ///   and `options`, before it has taken any sighting; `nil` (default) to make it now. Scans of one venue can
    ///   share one such session (each takes a copy): what it learned from a survey is then learned once.
    /// - Throws: ``ScanError`` with code `invalidRequest` for a duration that is not a positive number of seconds,
    ///   or a method the venue cannot run (one that needs a survey).
    public init(
        target: ScanTarget, duration seconds: Double, knownLocation: DeviceLocation? = nil,
        options: Options = Options(), session: LocationSession? = nil
    ) throws {
        guard seconds.isFinite, seconds > 0 else {
            throw ScanError(.invalidRequest, "a scan lasts a positive number of seconds, not \(seconds)")
        }
        self.session = try session ?? Self.session(venue: target.venue, options: options)
        let venue = target.venue
        self.target = target
        self.duration = seconds
        self.knownLocation = knownLocation
        self.options = options
        nodeIDs = Set(venue.nodes.map(\.id))
        beaconIDs = Set(venue.nodes.compactMap(\.beacon))
    }

    /// The session a scan of `venue` with `options` runs: the venue without its zones (a scan answers with a
    /// position), the options' method, tracking, calibration and the venue's survey (``Options/surveys``).
    ///
    /// With a survey this learns from it (seconds for a few hundred surveyed points).
    /// - Throws: ``ScanError`` with code `invalidRequest` for a method the venue cannot run (one that needs a survey).
    public static func session(venue: Venue, options: Options) throws -> LocationSession {
        var venue = venue
        venue.zones = []  // a scan answers with a position; zone events are the session's other users' business
        let configuration = SessionConfiguration(
            venue: venue, method: MethodCatalog.Selection(options.method, tracking: options.tracking),
            calibration: options.calibration, survey: options.surveys[venue.id], positioning: options.positioning)
        do {
            return try LocationSession(configuration)
        } catch {
            throw ScanError(.invalidRequest, "the scan's positioning cannot start: \(error)")
        }
    }

    /// The data time at which the scan ends: `start + duration`; `nil` before the first sighting.
    public var end: Double? { start.map { $0 + duration } }

    /// Takes one sighting.
    ///
    /// The first sighting starts the scan's clock. Sightings of other devices than ``Options/device`` and with a
    /// non-finite time are ignored; one at or after ``end`` completes the scan and is not used.
    /// - Returns: Whether the scan is complete.
    @discardableResult
    public mutating func ingest(_ sighting: Sighting) -> Bool {
        guard !isComplete, sighting.time.isFinite else { return isComplete }
        if let device = options.device, sighting.device != device { return false }
        let begin = start ?? sighting.time
        start = begin
        guard sighting.time < begin + duration else {
            isComplete = true
            reachedEnd = true
            return true
        }
        latest = max(latest ?? sighting.time, sighting.time)
        if isVenueNode(sighting.source), Sighting.physicalRSSIRange.contains(sighting.rssi) {
            heard[sighting.device, default: 0] += 1
        }
        for case .fix(let fix) in session.ingest(sighting) where firstFix[fix.device] == nil {
            firstFix[fix.device] = fix
        }
        return false
    }

    /// Ends the scan now, on the live path (the clock's duration passed first): the answer is made at the latest
    /// sighting's time.
    public mutating func finish() {
        isComplete = true
    }

    /// The device the scan locates: ``Options/device``, else the one heard most often (ties: the smallest id).
    public var device: String? {
        options.device ?? heard.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }

    /// The scan's answer at its end (``end`` when the duration passed, else the latest sighting's time).
    /// - Returns: The result, or why there is none: `nothingHeard`, `tooFewBeacons`.
    public func result() -> Result<ScanResult, ScanError> {
        guard let start, let device, heard[device, default: 0] > 0 else {
            return .failure(
                ScanError(
                    .nothingHeard,
                    "no beacon of venue '\(target.venue.id)' was heard during the scan of geofence '\(target.geofence)'"
                ))
        }
        let time = reachedEnd ? start + duration : endOfData
        let readings = session.readings(device: device, at: time)
        guard readings.count >= options.minimumBeacons else {
            return .failure(
                ScanError(
                    .tooFewBeacons,
                    "heard \(readings.count) beacon\(readings.count == 1 ? "" : "s") of venue '\(target.venue.id)' in the "
                        + "last \(Self.number(options.positioning.window)) s; a position needs at least "
                        + "\(options.minimumBeacons)"))
        }
        let fix: Fix
        switch session.locate(device: device, at: time) {
        case .failure(let noFix):
            return .failure(ScanError(.tooFewBeacons, "no position from \(readings.count) beacons: \(noFix.message)"))
        case .success(let located): fix = located
        }
        var point = fix.position.horizontal
        var accuracy = fix.accuracy
        if let seed = target.seed {
            (point, accuracy) = Self.fuse(
                point, accuracy: accuracy, with: seed, accuracy: target.seedAccuracy ?? options.defaultSeedAccuracy)
        }
        let coordinate = target.venue.anchor?.coordinate(of: point)
        let startLocation =
            knownLocation
            ?? firstFix[device].flatMap { first in
                first.coordinate.map {
                    DeviceLocation(
                        latitude: $0.latitude, longitude: $0.longitude, horizontalAccuracy: first.accuracy,
                        floor: first.floor, timestamp: first.time)
                }
            }
        return .success(
            ScanResult(
                floor: fix.floor, latitude: coordinate?.latitude, longitude: coordinate?.longitude, x: point.x,
                y: point.y, accuracy: accuracy, confidence: min(max(fix.confidence, 0), 1), timestamp: time,
                geofenceId: target.geofence, venueId: target.venue.id, method: fix.method, beacons: readings.count,
                duration: time - start, seeded: target.seed != nil, startLocation: startLocation))
    }

    /// The latest data time the scan has seen (its start when it saw only one sighting).
    private var endOfData: Double { latest ?? start ?? 0 }

    private func isVenueNode(_ source: SightingSource) -> Bool {
        switch source {
        case .node(let id): nodeIDs.contains(id)
        case .beacon(let beacon): beaconIDs.contains(beacon) || nodeIDs.contains(beacon.text)
        }
    }

    /// The inverse-variance combination of the scan's estimate and the seed (both taken as isotropic Gaussians
    /// with their accuracy as standard deviation): a prior for a device that stands still during a scan.
    static func fuse(_ estimate: Point2D, accuracy: Double, with seed: Point2D, accuracy seedAccuracy: Double)
        -> (Point2D, Double)
    {
        let a = max(accuracy, 0.1)
        let s = max(seedAccuracy, 0.1)
        let wa = 1 / (a * a)
        let ws = 1 / (s * s)
        let total = wa + ws
        let point = Point2D(x: (estimate.x * wa + seed.x * ws) / total, y: (estimate.y * wa + seed.y * ws) / total)
        return (point, (1 / total).squareRoot())
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
