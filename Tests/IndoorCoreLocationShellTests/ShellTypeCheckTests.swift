import IndoorModel
import IndoorSession
import Testing

/// The shell compiles against the shim on Linux (that is the check); these run the parts that need no radio.
@Suite("CoreLocation shell (against the shim)")
struct ShellTypeCheckTests {
    @Test func authorisationStatusesMapToTheSessionsWords() {
        #expect(CoreLocationBeaconSource.authorization(.authorizedWhenInUse) == .whenInUse)
        #expect(CoreLocationBeaconSource.authorization(.authorizedAlways) == .always)
        #expect(CoreLocationBeaconSource.authorization(.denied) == .denied)
        #expect(CoreLocationBeaconSource.authorization(.restricted) == .restricted)
        #expect(CoreLocationBeaconSource.authorization(.notDetermined) == .notDetermined)
    }

    @Test func aLocationCarriesItsFloor() {
        let location = IndoorCLLocation(
            DeviceLocation(latitude: 52.5, longitude: 13.4, horizontalAccuracy: 2, floor: 3))
        #expect(location.floor?.level == 3)
        #expect(location.coordinate.latitude == 52.5 && location.horizontalAccuracy == 2)
    }
}
