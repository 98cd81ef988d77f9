import IndoorModel

/// The one rule for a radio's RSSI at 1 m (and path-loss exponent), used by positioning and geofencing alike.
///
/// In order of preference:
/// 1. the radio's own calibration, when it has one (surveyed, fitted or given on its ``Node``);
/// 2. the transmit power advertised in its sightings (``Sighting/txPower``, an iBeacon's measured power, say) as
///    the RSSI at 1 m, with the fallback's exponent — only when it is ``plausible`` (−100…−20 dBm); anything else
///    is ignored as if none was advertised: a corrupt value (−1e308, NaN, 200) cannot put a device on top of the
///    radio or infinitely far from it, and a beacon that carries other data in its power byte (+26…+100 dBm, say)
///    or a transmitter's output power (0 dBm, +4 dBm) is not taken for a power received at 1 m;
/// 3. the fallback, ``NodeCalibration/typical`` (−59 dBm, n = 2) unless the caller has a better one (a fitted
///    calibration's pooled value, say).
public enum RSSIAtOneMeter {
    /// The powers received at 1 m (dBm) that ranging takes from an advertisement: −100…−20 dBm.
    ///
    /// A signed byte carries −128…127 dBm (``Sighting/advertisedTxPowerRange``, what a row may hold), but a real
    /// power at 1 m lies well inside that:
    /// - **at most −20 dBm**: Bluetooth LE transmits at most +20 dBm (Core Specification 5.x, Vol 6, Part A,
    ///   §3, power class 1), and at 2.4 GHz free space alone takes 40 dB over the first metre
    ///   (20·log10(4π · 1 m / 0.125 m)), so nothing is received at 1 m above −20 dBm; the most an Eddystone frame
    ///   can state, +20 dBm at 0 m, is −21 dBm at 1 m (``Sighting/txPower`` holds its power at 1 m, 41 dB less).
    ///   Typical beacons state −50…−80 dBm (−59 dBm is iBeacon's customary value). A larger value is another field
    ///   in the power byte (+26…+100 dBm is seen), an output power (0, +4 dBm) or a power at 0 m.
    /// - **at least −100 dBm**: receivers hear little below −100 dBm (common chips' sensitivity is −90…−100 dBm),
    ///   so a beacon received weaker than that at 1 m could not be heard beyond it; the weakest settings of common
    ///   beacons (−30…−40 dBm output) are received at about −70…−90 dBm at 1 m.
    ///
    /// The upper bound is also the survey fit's (it keeps a fitted RSSI at 1 m in −110…−20 dBm). An advertised
    /// power outside this range is ignored exactly as a missing one: the radio is ranged with its own calibration
    /// if it has one, else with the fallback (the venue's pooled calibration, or the typical −59 dBm).
    static let plausible: ClosedRange<Double> = -100 ... -20

    /// `dBm` when it is a plausible power at 1 m (within ``plausible``), else `nil`.
    ///
    /// - Parameter dBm: An advertised power at 1 m, dBm, or `nil` when none was advertised.
    /// - Returns: The same power in dBm, or `nil` when there is none or it is not plausible (non-finite, or
    ///   outside −100…−20 dBm).
    @inline(__always)
    public static func advertised(_ dBm: Double?) -> Double? {
        guard let dBm, plausible.contains(dBm) else { return nil }
        return dBm
    }

    /// The calibration to range a radio with.
    ///
    /// - Parameters:
    ///   - own: The radio's own calibration, if it has one; it always wins.
    ///   - dBm: The transmit power (dBm at 1 m) advertised with its sightings, if any; used only without `own` and
    ///     only when ``plausible`` (−100…−20 dBm).
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
