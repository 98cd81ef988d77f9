import IndoorModel

/// The one rule for a radio's RSSI at 1 m (and path-loss exponent), used by positioning and geofencing alike.
///
/// In order of preference:
/// 1. the radio's own calibration, when it has one (surveyed, fitted or given on its ``Node``);
/// 2. the transmit power advertised in its sightings (``Sighting/txPower``, an iBeacon's measured power, say) as
///    the RSSI at 1 m, with the fallback's exponent — only when it lies in ``advertisable`` (−128…127 dBm, what a
///    signed byte in a beacon frame can carry); anything else (−1e308, NaN, 200) is ignored, so a corrupt value
///    cannot put a device on top of the radio or infinitely far from it;
/// 3. the fallback, ``NodeCalibration/typical`` (−59 dBm, n = 2) unless the caller has a better one (a fitted
///    calibration's pooled value, say).
public enum RSSIAtOneMeter {
    /// The transmit powers (dBm) a beacon frame can advertise: a signed byte.
    static let advertisable: ClosedRange<Double> = -128...127

    /// `dBm` when it is an advertisable transmit power (within ``advertisable``), else `nil`.
    ///
    /// - Parameter dBm: An advertised transmit power, dBm, or `nil` when none was advertised.
    /// - Returns: The same power in dBm, or `nil` when there is none or no beacon frame could carry it.
    @inline(__always)
    public static func advertised(_ dBm: Double?) -> Double? {
        guard let dBm, advertisable.contains(dBm) else { return nil }
        return dBm
    }

    /// The calibration to range a radio with.
    ///
    /// - Parameters:
    ///   - own: The radio's own calibration, if it has one; it always wins.
    ///   - dBm: The transmit power (dBm at 1 m) advertised with its sightings, if any; used only without `own` and
    ///     only when within ``advertisable``.
    ///   - fallback: The calibration when neither says (default ``NodeCalibration/typical``, −59 dBm, n = 2); its
    ///     exponent also goes with an advertised power.
    /// - Returns: `own`; else `fallback` with `rssiAtOneMeter` set to the advertised power; else `fallback`.
    @inline(__always)
    public static func calibration(
        own: NodeCalibration?, advertised dBm: Double?, fallback: NodeCalibration = .typical
    ) -> NodeCalibration {
        if let own { return own }
        guard let power = advertised(dBm) else { return fallback }
        return NodeCalibration(rssiAtOneMeter: power, pathLossExponent: fallback.pathLossExponent)
    }
}
