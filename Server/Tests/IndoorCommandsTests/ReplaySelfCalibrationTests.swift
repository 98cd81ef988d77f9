import Foundation
import IndoorEvaluation
import IndoorModel
import Testing

@testable import IndoorCommands

/// `indoor replay --no-self-calibration`: the nodes' sightings of each other are then not fitted (they still make no
/// device), as `indoor evaluate --no-self-calibration`.
@Suite struct ReplaySelfCalibrationTests {
    /// A small simulated office (four rooms a side, 8 beacons that hear each other), one walker for 60 s, with the
    /// mismatched radio of docs/notes/self-calibration.md (n = 2.5, beacon power σ 4 dB).
    static func simulated() throws -> SimulatedDataset {
        var options = SimulatorOptions()
        options.seed = 3
        options.roomsPerSide = 4
        options.beaconsPerFloor = 8
        options.pathLossExponent = 2.5
        options.beaconPowerSigma = 4
        options.nodeLinks = true
        options.devices = 1
        options.duration = 60
        return try Simulator(options: options).run()
    }

    /// The replay's lines and summary, self-calibrating or not.
    static func replay(_ dataset: SimulatedDataset, selfCalibration: Bool) throws -> (
        lines: [String], summary: ReplaySummary
    ) {
        var bytes: Data? = Data(DatasetCSV.sightingsText(dataset.dataset.test.sightings).utf8)
        var lines: [String] = []
        let summary = try ReplayCommand.replay(
            venue: try dataset.venue.encodeJSON(), venueFile: "venue.json", sightingsFile: "sightings.csv",
            read: {
                defer { bytes = nil }
                return bytes
            },
            options: ReplayCommand.Options(selfCalibration: selfCalibration),
            problem: { Issue.record("unexpected problem \($0)") }, write: { lines.append($0) })
        return (lines, summary)
    }

    @Test func theFlagLeavesTheLinksUnfittedAndSaysSo() throws {
        let dataset = try Self.simulated()
        let links = dataset.dataset.test.sightings.filter { $0.device.hasPrefix("node:") }.count
        #expect(links > 1000)
        let on = try Self.replay(dataset, selfCalibration: true)
        let off = try Self.replay(dataset, selfCalibration: false)
        for run in [on, off] {
            #expect(run.summary.nodeLinks == links)
            #expect(run.summary.fixes > 30)
            #expect(!run.lines.contains { $0.contains(#""device":"node:"#) }, "a link made a fix")
        }
        let fit = try #require(on.summary.selfCalibration)
        #expect(on.summary.isSelfCalibrating && fit.nodes.count == 8)
        #expect(on.summary.description.contains("node-to-node sightings; self-calibration: 8 nodes fitted on"))
        #expect(!off.summary.isSelfCalibrating && off.summary.selfCalibration == nil)
        #expect(off.summary.description.hasSuffix("\(links) node-to-node sightings; self-calibration off"))
        // The fit moves the fixes.
        #expect(on.lines != off.lines)
    }

    @Test func theCommandLineParsesTheFlag() throws {
        let plain = try #require(
            try IndoorCommand.parseAsRoot(["replay", "--venue", "v.json", "s.csv"]) as? ReplayCommand)
        #expect(!plain.noSelfCalibration)
        let off = try #require(
            try IndoorCommand.parseAsRoot(["replay", "--venue", "v.json", "s.csv", "--no-self-calibration"])
                as? ReplayCommand)
        #expect(off.noSelfCalibration)
    }
}
