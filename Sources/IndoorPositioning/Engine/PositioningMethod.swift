import IndoorModel

/// A way of turning the current node readings of one device into a position.
///
/// Implement this to plug your own method into the engine, `indoor evaluate` and blends.
public protocol PositioningMethod: Sendable {
    /// The name used on the command line and in reports, for example `weighted-centroid`.
    var name: String { get }
    /// The position for `readings`, which are sorted strongest RSSI first and never empty.
    func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix>
}
