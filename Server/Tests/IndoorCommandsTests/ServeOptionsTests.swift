import ArgumentParser
import Testing

@testable import IndoorCommands

@Suite("indoor serve options")
struct ServeOptionsTests {
    @Test(arguments: [
        ("90s", 90.0), ("30m", 1800), ("12h", 43200), ("7d", 604_800), ("3600", 3600), ("0.5d", 43200),
        ("forever", Double.infinity),
    ])
    func aRetentionIsADuration(text: String, seconds: Double) {
        #expect(ServeCommand.duration(text) == seconds)
    }

    @Test(arguments: ["", "7x", "d", "0", "-1h", "never", "1e400"])
    func anythingElseIsRefused(text: String) {
        #expect(ServeCommand.duration(text) == nil)
        #expect(throws: (any Error).self) { try IndoorCommand.parseAsRoot(["serve", "--retain-sightings", text]) }
    }
}
