import Foundation
import IndoorSession

extension DeviceLocation {
    /// A location as CoreLocation gives it (`CLLocation`'s coordinate, horizontal accuracy, floor level and
    /// timestamp), in the session's form; `nil` when the coordinate is no place on the Earth (CoreLocation's
    /// invalid coordinate is one). A negative or non-finite accuracy, which CoreLocation uses for "invalid", is
    /// unknown.
    public init?(
        coreLocationLatitude latitude: Double, longitude: Double, horizontalAccuracy: Double, floorLevel: Int?,
        timestamp: Date
    ) {
        let accuracy = horizontalAccuracy.isFinite && horizontalAccuracy >= 0 ? horizontalAccuracy : nil
        self.init(
            latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy, floor: floorLevel,
            timestamp: timestamp.timeIntervalSince1970)
        guard isValid else { return nil }
    }
}
