import Foundation
import IndoorPositioning
import Testing

@testable import IndoorCommands

@Suite("indoor demo")
struct DemoCommandTests {
    @Test func printsTheErrorSummaryOfTheDefaultOffice() throws {
        let output = try DemoCommand.parse([]).output()
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines.first == "Simulated office (seed 1): 1 floor of 40 m x 18.4 m, 16 rooms, 14 beacons on the walls.")
        let header = try #require(lines.firstIndex { $0.hasPrefix("method") })
        let row = lines[header + 1]
        #expect(row.hasPrefix(MethodCatalog.defaultName + " "))
        // The median error of the baseline in this office is a few metres.
        let columns = row.split(separator: " ")
        let median = try #require(Double(columns[4]))
        #expect(median > 0.5 && median < 5)
        #expect(lines.contains { $0.hasPrefix("  walker-1: (") })
        // Deterministic: the same seed prints the same text.
        #expect(try DemoCommand.parse([]).output() == output)
    }
}
