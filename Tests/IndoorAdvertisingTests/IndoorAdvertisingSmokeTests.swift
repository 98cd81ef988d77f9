import Testing
@testable import IndoorAdvertising
