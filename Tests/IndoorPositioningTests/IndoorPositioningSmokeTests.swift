import Testing
@testable import IndoorPositioning
