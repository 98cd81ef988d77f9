import Foundation
import IndoorModel
import IndoorPositioning
import Testing

@testable import IndoorCommands

/// Writes a dataset whose survey follows −50 dBm at 1 m, exponent 2.5 exactly, for three nodes.
private func writeDataset(withTrain: Bool) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calibrate-\(UUID().uuidString)")
    let nodes = [("a", 0.0, 0.0), ("b", 12.0, 0.0), ("c", 0.0, 9.0)]
    var sightings = "t,device,node,rssi\n"
    var truth = "t,device,x,y,z,floor\n"
    for step in 0..<60 {
        let x = 1 + Double(step % 10)
        let y = 1 + Double(step / 10)
        truth += "\(step),walker,\(x),\(y),,\n"
        for (id, nx, ny) in nodes {
            let meters = ((x - nx) * (x - nx) + (y - ny) * (y - ny)).squareRoot()
            sightings += "\(step),walker,\(id),\(-50 - 25 * log10(meters))\n"
        }
    }
    for split in withTrain ? ["train", "test"] : ["test"] {
        let directory = folder.appendingPathComponent(split)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(sightings.utf8).write(to: directory.appendingPathComponent("sightings.csv"))
        try Data(truth.utf8).write(to: directory.appendingPathComponent("truth.csv"))
    }
    let nodesCSV = "id,x,y,z,floor\n" + nodes.map { "\($0.0),\($0.1),\($0.2),,\n" }.joined()
    try Data(nodesCSV.utf8).write(to: folder.appendingPathComponent("nodes.csv"))
    return folder
}

@Suite("indoor calibrate")
struct CalibrateCommandTests {
    @Test(arguments: [true, false])
    func writesTheFittedCalibration(withTrain: Bool) throws {
        let folder = try writeDataset(withTrain: withTrain)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("calibration.json")
        let command = try CalibrateCommand.parse([folder.path, "-o", output.path])
        try command.run()
        let calibration = try JSONDecoder().decode(Calibration.self, from: Data(contentsOf: output))
        for id in ["a", "b", "c"] {
            let fit = try #require(calibration.nodes[id])
            #expect(abs(fit.rssiAtOneMeter - -50) < 1e-6)
            #expect(abs(fit.pathLossExponent - 2.5) < 1e-6)
        }
        #expect(calibration.deviceHeight == nil)
        let (_, summary) = CalibrateCommand.calibrate(
            Dataset(name: "x", nodes: [], test: Recording(sightings: [], truth: [])))
        #expect(summary.hasPrefix("x: calibrated on test/ (0 sightings, 0 truth rows)\n"))
    }

    @Test func aMissingDatasetIsAClearError() {
        #expect(throws: FormatError.self) {
            let command = try CalibrateCommand.parse(["/nonexistent/dataset", "-o", "/tmp/x.json"])
            try command.run()
        }
    }
}
