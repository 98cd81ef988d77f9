import Testing
@testable import IndoorModel
