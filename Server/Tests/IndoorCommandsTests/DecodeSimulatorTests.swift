import Foundation
import IndoorAdvertising
import IndoorEvaluation
import IndoorModel
import Testing

@testable import IndoorCommands

/// The path `indoor simulate --btsnoop` takes: simulated sightings -> capture -> `indoor decode --sightings`.
@Suite("simulated captures")
struct DecodeSimulatorTests {
    @Test func simulatedSightingsSurviveACapture() throws {
        var options = SimulatorOptions()
        options.devices = 11  // walker-10 and walker-11 are longer than a monitor adapter name
        options.duration = 20
        let simulated = try Simulator(options: options).run()
        let sightings = simulated.dataset.test.sightings
        #expect(sightings.count > 100)
        let capture = try BeaconCapture.btsnoop(sightings: sightings) { source in
            simulated.beacon(of: Sighting(time: 0, device: "", source: source, rssi: 0))
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID().uuidString).btsnoop")
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID().uuidString).csv")
        defer {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: csv)
        }
        try Data(capture).write(to: file)
        var decode = DecodeOutput()
        decode.quiet = true
        decode.sightings = csv
        var problems: [String] = []
        let summary = try decode.run(file: file, output: { _ in }, problems: { problems.append($0) })
        #expect(problems.isEmpty)
        #expect(summary.sightings == sightings.count)
        let back = try DatasetCSV.parseSightings(try String(contentsOf: csv, encoding: .utf8)).get()
        let expected = simulated.beaconSightings(sightings).enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        #expect(back.map(\.device) == expected.map(\.device))
        #expect(back.map(\.source) == expected.map(\.source))
        #expect(back.map(\.rssi) == expected.map { $0.rssi.rounded() })
        let worstTime = zip(back, expected).map { abs($0.time - $1.time) }.max() ?? 0
        #expect(worstTime < 1e-6)
    }
}
