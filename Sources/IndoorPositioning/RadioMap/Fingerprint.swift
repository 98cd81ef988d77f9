import IndoorModel

/// A survey fingerprint: the filtered RSSI of each node heard at a known position.
public struct Fingerprint: Hashable, Sendable {
    /// Where it was taken, metres in the venue frame.
    public var position: Point3D
    /// The floor the survey point is on, when the venue has floors.
    public var floor: Int?
    /// Filtered RSSI in dBm, by node id; nodes not heard are absent.
    public var rssi: [String: Double]

    /// A survey point at `position` (metres, venue frame) on `floor`, with mean RSSI in dBm by node id.
    public init(position: Point3D, floor: Int? = nil, rssi: [String: Double]) {
        self.position = position
        self.floor = floor
        self.rssi = rssi
    }
}
