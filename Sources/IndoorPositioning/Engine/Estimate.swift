import IndoorModel

/// A method's answer: a position with its uncertainty.
public struct Estimate: Hashable, Sendable {
    /// Metres in the venue's local frame.
    public var position: Point3D
    /// The floor the position is on, `nil` in a venue without floors.
    public var floor: Int?
    /// Radius in metres within which the device likely is.
    public var accuracy: Double
    /// 0 … 1.
    public var confidence: Double
    /// The catalogue name of the estimator that answered, where a method hands the readings to another one
    /// (``AutoMethod`` with few nodes heard); `nil` when the method answered itself. A fix's `method` says it.
    public var method: String?

    /// An estimate at `position` (metres, venue frame), `accuracy` in metres, `confidence` in 0…1, answered by
    /// `method` (`nil`: the method asked).
    public init(position: Point3D, floor: Int? = nil, accuracy: Double, confidence: Double, method: String? = nil) {
        self.position = position
        self.floor = floor
        self.accuracy = accuracy
        self.confidence = confidence
        self.method = method
    }
}
