import Foundation

/// Where a device really was at a time: one row of a dataset's `truth.csv`.
public struct TruthPoint: Hashable, Sendable {
    /// Seconds, on the same clock as the device's sightings.
    public var time: Double
    /// The id of the device.
    public var device: String
    /// Horizontal position, metres in the dataset's frame.
    public var point: Point2D
    /// Height in metres, when known.
    public var z: Double?
    /// Floor level, when the dataset has floors.
    public var floor: Int?

    /// A truth row: `time` in seconds, `point` and `z` in metres.
    public init(time: Double, device: String, point: Point2D, z: Double? = nil, floor: Int? = nil) {
        self.time = time
        self.device = device
        self.point = point
        self.z = z
        self.floor = floor
    }
}
