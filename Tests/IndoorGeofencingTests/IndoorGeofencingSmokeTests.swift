import Testing
@testable import IndoorGeofencing
