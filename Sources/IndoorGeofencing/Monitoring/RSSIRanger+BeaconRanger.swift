import IndoorModel
import IndoorRanging

extension RSSIRanger: BeaconRanger {
    /// The ranging update for `sighting` (``RSSIRanger/ingest(_:)``), as geofencing reports it.
    public mutating func range(_ sighting: Sighting) -> RangedBeacon {
        let estimate = ingest(sighting)
        return RangedBeacon(
            time: sighting.time, device: sighting.device, source: sighting.source, rssi: estimate.rssi,
            distance: estimate.distance, proximity: estimate.proximity)
    }
}
