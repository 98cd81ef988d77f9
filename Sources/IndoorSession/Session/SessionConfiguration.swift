import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorPositioning
import IndoorRanging

/// Everything a ``LocationSession`` is set up with: the venue, how to position, what to monitor, peers.
///
/// Only ``venue`` is required; every other setting has the default an app or a server would want.
public struct SessionConfiguration: Sendable {
    /// The venue: nodes (with their calibrations), floors, zones and the geo anchor that places fixes on WGS84.
    public var venue: Venue
    /// The positioning method and whether its fixes are tracked (``MethodCatalog/Selection``; the command
    /// line's `blend+track` is `Selection(.blend, tracking: true)`). Default: ``defaultMethod``.
    public var method: MethodCatalog.Selection
    /// What answers when ``method`` cannot. Default: weighted centroid for too few nodes, nodes on a line and
    /// implausible answers.
    public var fallback: FallbackPolicy
    /// Per-node path loss and per-device receiver offsets; `nil` to fit one on ``survey``, or without a survey,
    /// use each node's own calibration or the typical one.
    public var calibration: Calibration?
    /// Sightings with truth (a site survey), for methods that learn fingerprints or fit a calibration.
    public var survey: Recording?
    /// Filters, window, memory bounds and the sanity guard of the positioning engine.
    public var positioning: PositioningEngine.Configuration
    /// Seconds of data time between two fixes of one device; 0 locates after every sighting. Default 1 s.
    public var fixInterval: Double
    /// Seconds of data time a device's first fix waits after its first sighting, so that it is made from what the
    /// device heard in that moment rather than from one reading; 0 fixes at the first sighting. Default 0.5 s. The
    /// fix is made at the device's first sighting at or after that time, or, when the device is not heard again, at
    /// that time by the next sighting of any device or ``LocationSession/advance(to:)``.
    public var firstFixDelay: Double
    /// Ranges beacon sightings (filtered RSSI, distance, proximity) for zone beacons, monitoring and peers.
    public var ranger: any BeaconRanger
    /// Beacon conditions to monitor on each device (region enter, ranging, leave); empty for none.
    public var monitoring: [BeaconCondition]
    /// Seconds without a matching beacon before a monitored condition is left. Default 10 s.
    public var monitoringExitDelay: Double
    /// Peers: other phones of the same app, advertising as beacons; `nil` for none.
    public var peers: PeerConfiguration?
    /// The most devices the session holds at once (at least 1). Default 100 000. A new device beyond it evicts the
    /// device silent longest: its open zone visits are checked out (`lost`) and it is counted in
    /// ``SessionStatistics/evictedDevices``, so a flood of new ids (rotating private addresses) cannot exhaust memory.
    public var maximumDevices: Int
    /// The default of ``maximumDevices``: 100 000 devices.
    public static let defaultMaximumDevices = 100_000

    /// Seconds of data time after a device was last heard that the session lets it go (its readings, track, filters,
    /// monitors, room and last fix), once no zone rule still needs it (its check-outs made and its re-trigger windows
    /// over): the longest of the positioning engine's device expiry, the monitoring exit delay and the first-fix
    /// delay plus the fix interval. A device heard again after that starts afresh, as a new one.
    public var deviceMemory: Double {
        max(positioning.deviceExpiry, monitoringExitDelay, firstFixDelay + fixInterval, 1)
    }

    /// Peers advertise as iBeacons with the app's UUID; their major and minor name them (``PeerKey``).
    public struct PeerConfiguration: Hashable, Sendable {
        /// The UUID every peer of the app advertises.
        public var uuid: UUID
        /// Seconds without a peer's beacon after which its distance becomes unknown. Default 30 s.
        public var timeout: Double

        /// Peers advertising `uuid`; their distance becomes unknown `timeout` seconds after they were last heard.
        public init(uuid: UUID, timeout seconds: Double = 30) {
            self.uuid = uuid
            self.timeout = seconds
        }
    }

    /// - Parameters:
    ///   - venue: Nodes, floors, zones, anchor.
    ///   - method: A catalogue method; `nil` for ``defaultMethod``.
    ///   - fallback: What answers when the method cannot (default ``FallbackPolicy/weightedCentroid``).
    ///   - calibration: A calibration; `nil` to fit one on `survey` or use the nodes' own.
    ///   - survey: A site survey for methods that need one.
    ///   - positioning: Engine tuning.
    ///   - fixInterval: Seconds between fixes of one device (default 1).
    ///   - firstFixDelay: Seconds a device's first fix waits after its first sighting (default 0.5).
    ///   - ranger: The beacon ranger (default: the ranging stack's ``IndoorRanging/RSSIRanger`` over the venue's
    ///     node calibrations, exponential filter).
    ///   - monitoring: Beacon conditions to monitor.
    ///   - monitoringExitDelay: Seconds without a matching beacon before a condition is left (default 10).
    ///   - peers: Peer options, or `nil`.
    ///   - maximumDevices: The most devices held at once (default 100 000; at least 1).
    public init(
        venue: Venue, method: MethodCatalog.Selection? = nil,
        fallback: FallbackPolicy = .weightedCentroid,
        calibration: Calibration? = nil, survey: Recording? = nil,
        positioning: PositioningEngine.Configuration = PositioningEngine.Configuration(),
        fixInterval seconds: Double = 1, firstFixDelay: Double = 0.5, ranger: (any BeaconRanger)? = nil,
        monitoring: [BeaconCondition] = [], monitoringExitDelay: Double = 10, peers: PeerConfiguration? = nil,
        maximumDevices: Int = SessionConfiguration.defaultMaximumDevices
    ) {
        self.venue = venue
        self.method = method ?? Self.defaultMethod
        self.fallback = fallback
        self.calibration = calibration
        self.survey = survey
        self.positioning = positioning
        self.fixInterval = seconds
        self.firstFixDelay = firstFixDelay
        self.ranger = ranger ?? RSSIRanger(nodes: venue.nodes)
        self.monitoring = monitoring
        self.monitoringExitDelay = monitoringExitDelay
        self.peers = peers
        self.maximumDevices = max(1, maximumDevices)
    }

    /// The method a session uses when none is given, with ``FallbackPolicy/weightedCentroid`` behind it: `auto`
    /// (``IndoorPositioning/MethodCatalog/defaultMethod``, untracked), which adapts to what the venue comes with.
    ///
    /// - With a survey: a particle filter over a radio map learned from the survey, its parameters cross-validated on
    ///   it; best or within 0.05 m of the best on every public dataset (docs/ACCURACY.md). Building it runs the
    ///   cross-validation (seconds for a survey of a few hundred points).
    /// - Without one: the posterior mean over the calibration's path-loss model where four or more nodes are heard
    ///   (without a calibration that knows the path loss, trilateration instead where their ranges agree); where fewer
    ///   are, nonlinear least squares with a calibration (``IndoorPositioning/Calibration/knowsPathLoss``), and the
    ///   weighted centroid without one (``IndoorPositioning/AutoMethod/sparse``).
    public static let defaultMethod = MethodCatalog.Selection(MethodCatalog.defaultMethod)
}
