import IndoorModel

/// Turns raw sightings into ranging updates (filtered RSSI, distance, proximity).
///
/// The monitor, the zone engine and the replay command take a ranger by injection, so any filter and
/// distance model can be plugged in. ``SmoothingRanger`` (the stack's `RSSIRanger` with its exponential filter) is the
/// default. A ranger keeps per-(device, radio) state and must be deterministic: no clock, only the
/// sighting's time.
public protocol BeaconRanger: Sendable {
    /// The ranging update for `sighting`, after folding it into the filter state.
    mutating func range(_ sighting: Sighting) -> RangedBeacon
    /// Lets `device` go: whatever state the ranger keeps for it (a session calls it once the device is gone, so
    /// that memory does not grow with every device ever heard). The default keeps nothing to forget.
    mutating func forget(device: String)
}

extension BeaconRanger {
    /// A ranger that keeps no per-device state has nothing to forget.
    public mutating func forget(device: String) {}
}
