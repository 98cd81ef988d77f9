import IndoorGeofencing
import IndoorModel
import IndoorPositioning

/// A ``BeaconRanger`` built from the positioning layer's RSSI filters and distance models.
///
/// This is where the command-line edge plugs positioning's filters into geofencing (which imports only the
/// model). Per (device, radio) one ``RSSIFilter`` of ``kind``; the distance comes from ``model`` with the
/// node's calibration when the venue gives one, else the sighting's tx power (as the RSSI at 1 m, exponent 2),
/// else ``NodeCalibration/typical``.
struct ReplayRanger: BeaconRanger {
    var kind: RSSIFilter.Kind
    var model: DistanceModel
    var thresholds: Proximity.Thresholds
    private let calibrations: [SightingSource: NodeCalibration]
    private var filters: [Key: RSSIFilter] = [:]

    private struct Key: Hashable, Sendable {
        var device: String
        var source: SightingSource
    }

    init(
        kind: RSSIFilter.Kind, model: DistanceModel = .logDistance, nodes: [Node],
        thresholds: Proximity.Thresholds = .standard
    ) {
        self.kind = kind
        self.model = model
        self.thresholds = thresholds
        self.calibrations = NodeCalibration.bySource(of: nodes)
    }

    mutating func range(_ sighting: Sighting) -> RangedBeacon {
        let key = Key(device: sighting.device, source: sighting.source)
        var filter = filters[key] ?? RSSIFilter(kind)
        filter.add(dBm: sighting.rssi, at: sighting.time)
        filters[key] = filter
        let rssi = filter.value(at: sighting.time) ?? sighting.rssi
        let calibration =
            calibrations[sighting.source]
            ?? sighting.txPower.map { NodeCalibration(rssiAtOneMeter: $0, pathLossExponent: 2) } ?? .typical
        let distance = rssi.isFinite ? model.distance(rssi: rssi, calibration: calibration) : .infinity
        return RangedBeacon(
            time: sighting.time, device: sighting.device, source: sighting.source, rssi: rssi, distance: distance,
            proximity: Proximity(distance: distance, thresholds: thresholds))
    }
}
