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

    /// An estimate at `position` (metres, venue frame), `accuracy` in metres, `confidence` in 0…1.
    public init(position: Point3D, floor: Int? = nil, accuracy: Double, confidence: Double) {
        self.position = position
        self.floor = floor
        self.accuracy = accuracy
        self.confidence = confidence
    }
}
