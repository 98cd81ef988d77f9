import Foundation
import IndoorCoreLocation
import IndoorSession
import Testing

/// What the CoreLocation-typed scan provider (`IndoorCLScanProvider`) hands the session: a `CLLocation`'s numbers
/// as a ``DeviceLocation``.
@Suite("A CoreLocation location in the session's form")
struct KnownLocationTests {
    @Test func aValidLocationKeepsItsNumbersFloorAndTime() {
        let location = DeviceLocation(
            coreLocationLatitude: 52.5, longitude: 13.4, horizontalAccuracy: 8, floorLevel: 2,
            timestamp: Date(timeIntervalSince1970: 1_795_696_662))
        #expect(
            location
                == DeviceLocation(
                    latitude: 52.5, longitude: 13.4, horizontalAccuracy: 8, floor: 2, timestamp: 1_795_696_662))
    }

    @Test(arguments: [-1.0, .nan, .infinity])
    func anInvalidAccuracyIsUnknown(accuracy: Double) {
        let location = DeviceLocation(
            coreLocationLatitude: 52.5, longitude: 13.4, horizontalAccuracy: accuracy, floorLevel: nil,
            timestamp: Date(timeIntervalSince1970: 0))
        #expect(location?.horizontalAccuracy == nil)
        #expect(location?.latitude == 52.5)
    }

    /// CoreLocation's invalid coordinate is (−180, −180); other coordinates off the Earth too.
    @Test(arguments: [(-180.0, -180.0), (91.0, 0.0), (0.0, 181.0), (Double.nan, 0.0)])
    func aCoordinateOffTheEarthIsNoLocation(latitude: Double, longitude: Double) {
        #expect(
            DeviceLocation(
                coreLocationLatitude: latitude, longitude: longitude, horizontalAccuracy: 5, floorLevel: 0,
                timestamp: Date(timeIntervalSince1970: 0)) == nil)
    }
}
