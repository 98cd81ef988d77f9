import Testing
@testable import IndoorEvaluation
