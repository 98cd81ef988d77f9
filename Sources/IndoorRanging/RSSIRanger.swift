import IndoorModel

/// The stack's ranger: sightings to filtered RSSI, distance and proximity, per (device, radio).
///
/// Per (device, radio) one ``RSSIFilter`` of ``filter``; the distance comes from ``distanceModel`` with the
/// calibration ``RSSIAtOneMeter`` picks (the radio's own from the nodes given at `init`, else a plausible advertised
/// power at 1 m, −100…−20 dBm, else ``fallback``), and the proximity class from ``thresholds``. Geofencing ranges with it
/// (it is a `BeaconRanger` there); the positioning engine applies the same filters, rule and classes.
/// Deterministic: time comes only from the sightings.
public struct RSSIRanger: Sendable {
    /// The per-(device, radio) filter.
    public let filter: RSSIFilter.Kind
    /// Seconds of silence after which the ARMA and Kalman filters restart.
    public let expiry: Double
    /// How a filtered RSSI becomes a distance.
    public let distanceModel: DistanceModel
    /// The calibration of radios with neither a calibration of their own nor a valid advertised power.
    public let fallback: NodeCalibration
    /// Distances (metres) between proximity classes.
    public let thresholds: Proximity.Thresholds

    private let calibrations: [SightingSource: NodeCalibration]
    /// Per device, its radios' filters: a device's whole state goes at once (``forget(device:)``).
    private var filters: [String: [SightingSource: RSSIFilter]] = [:]

    /// - Parameters:
    ///   - nodes: Radios whose own calibration should be used; each is known by its node id and, when it has one,
    ///     its beacon identity.
    ///   - filter: The RSSI filter (default ``RSSIFilter/Kind/geofencingDefault``: weight 0.3, reset after 10 s).
    ///   - seconds: Seconds of silence that restart the ARMA and Kalman filters (default 20).
    ///   - distanceModel: RSSI to distance (default log-distance).
    ///   - fallback: Calibration when neither the node nor the sighting says (default ``NodeCalibration/typical``).
    ///   - thresholds: Proximity class limits (default 0.5 m / 3 m).
    public init(
        nodes: [Node] = [], filter: RSSIFilter.Kind = .geofencingDefault, expiry seconds: Double = 20,
        distanceModel: DistanceModel = .logDistance, fallback: NodeCalibration = .typical,
        thresholds: Proximity.Thresholds = .standard
    ) {
        self.filter = filter
        self.expiry = seconds
        self.distanceModel = distanceModel
        self.fallback = fallback
        self.thresholds = thresholds
        self.calibrations = NodeCalibration.bySource(of: nodes)
    }

    /// Folds `sighting` into its (device, radio) filter and answers the filtered RSSI, distance and proximity.
    ///
    /// A non-finite RSSI is not filtered: it answers that RSSI, an infinite distance and ``Proximity/unknown``.
    public mutating func ingest(_ sighting: Sighting) -> RangeEstimate {
        let calibration = calibration(source: sighting.source, txPower: sighting.txPower)
        guard sighting.rssi.isFinite else {
            return RangeEstimate(
                rssi: sighting.rssi, distance: .infinity, proximity: .unknown, calibration: calibration)
        }
        var radios = filters.removeValue(forKey: sighting.device) ?? [:]
        var state = radios.removeValue(forKey: sighting.source) ?? RSSIFilter(filter, expiry: expiry)
        state.add(dBm: sighting.rssi, at: sighting.time)
        let rssi = state.value(at: sighting.time) ?? sighting.rssi
        radios[sighting.source] = state
        filters[sighting.device] = radios
        let distance = distance(rssi: rssi, calibration: calibration)
        return RangeEstimate(
            rssi: rssi, distance: distance, proximity: thresholds.proximity(meters: distance), calibration: calibration)
    }

    /// Lets `device` go: the filters of every radio it heard. One heard again starts afresh.
    public mutating func forget(device: String) {
        filters[device] = nil
    }

    /// How many devices have filters now.
    public var deviceCount: Int { filters.count }

    /// The calibration a sighting of `source` carrying `txPower` (dBm at 1 m, if advertised) is ranged with.
    public func calibration(source: SightingSource, txPower: Double?) -> NodeCalibration {
        RSSIAtOneMeter.calibration(own: calibrations[source], advertised: txPower, fallback: fallback)
    }

    /// The distance in metres for `rssi` dBm from `source` with the advertised `txPower` (dBm, if any);
    /// `.infinity` for a non-finite RSSI.
    public func distance(rssi dBm: Double, source: SightingSource, txPower: Double?) -> Double {
        distance(rssi: dBm, calibration: calibration(source: source, txPower: txPower))
    }

    private func distance(rssi dBm: Double, calibration: NodeCalibration) -> Double {
        guard dBm.isFinite else { return .infinity }
        return distanceModel.distance(rssi: dBm, calibration: calibration)
    }
}
