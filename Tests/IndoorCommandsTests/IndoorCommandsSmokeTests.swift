import Testing
@testable import IndoorCommands
