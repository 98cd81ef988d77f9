import IndoorModel

/// One ranging update: how strong and how far a beacon seemed to a device at a time.
public struct RangedBeacon: Hashable, Sendable {
    /// Seconds, the time of the sighting it came from.
    public var time: Double
    /// The device that heard the beacon (or that the gateway heard).
    public var device: String
    /// The radio ranged.
    public var source: SightingSource
    /// Filtered received signal strength, dBm.
    public var rssi: Double
    /// Estimated distance, metres; non-finite when unknown.
    public var distance: Double
    /// The proximity class of ``distance``.
    public var proximity: Proximity

    /// A ranging update at `time` seconds: `rssi` dBm (filtered), `distance` metres (non-finite when unknown),
    /// and its `proximity` class.
    ///
    /// Rangers make these (``BeaconRanger/range(_:)``); an app that ranges with its own radio code (CoreBluetooth,
    /// another scanner) makes them too, and gives them to ``BeaconMonitor/ingest(ranged:)``, a ``ZoneEngine``
    /// (`update(with:)`) or a ``PeerDirectory`` (`heard(_:)`), or returns them from its own ``BeaconRanger``.
    public init(
        time: Double, device: String, source: SightingSource, rssi: Double, distance meters: Double,
        proximity: Proximity
    ) {
        self.time = time
        self.device = device
        self.source = source
        self.rssi = rssi
        self.distance = meters
        self.proximity = proximity
    }
}
