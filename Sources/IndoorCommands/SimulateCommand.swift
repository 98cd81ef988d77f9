import ArgumentParser
import Foundation
import IndoorAdvertising
import IndoorEvaluation
import IndoorModel

/// `indoor simulate -o DIR`: writes a simulated office dataset in the shared layout, plus `venue.json`.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate beacons in an office and people walking through it; write a dataset.",
        discussion: """
            Writes DIR/README.md, venue.json, nodes.csv, train/ (a survey walk) and test/ (the walkers), \
            in the layout `indoor evaluate` reads. The same seed and options give byte-identical files.
            """)

    @Option(name: .shortAndLong, help: ArgumentHelp("The dataset folder to write.", valueName: "dir"))
    var output: String

    @Option(help: "Floors of the building.")
    var floors: Int = SimulatorOptions().floors

    @Option(help: "Rooms on each side of the corridor, per floor (each 5 m wide).")
    var rooms: Int = SimulatorOptions().roomsPerSide

    @Option(help: "Beacons per floor.")
    var beacons: Int = SimulatorOptions().beaconsPerFloor

    @Option(help: "People walking in test/.")
    var devices: Int = SimulatorOptions().devices

    @Option(help: "Seconds of walking in test/.")
    var duration: Double = SimulatorOptions().duration

    @Option(help: "Shadowing standard deviation per packet, dB.")
    var sigma: Double = SimulatorOptions().shadowingSigma

    @Option(help: "Slow shadowing standard deviation per beacon and phone, dB (0 turns it off).")
    var slowSigma: Double = SimulatorOptions().slowShadowingSigma

    @Option(help: "Path-loss exponent.")
    var exponent: Double = SimulatorOptions().pathLossExponent

    @Option(help: "Loss per wall crossed, dB.")
    var wallLoss: Double = SimulatorOptions().wallLoss

    @Option(help: "Loss per floor between beacon and phone, dB.")
    var floorLoss: Double = SimulatorOptions().floorLoss

    @Option(help: "Seconds between a beacon's advertisements.")
    var interval: Double = SimulatorOptions().advertisingInterval

    @Option(help: "Fraction of packets lost, 0...1.")
    var packetLoss: Double = SimulatorOptions().packetLoss

    @Option(help: "Random seed.")
    var seed: UInt64 = SimulatorOptions().seed

    @Option(
        help: ArgumentHelp(
            "Also write the walkers' packets (test/) as a btsnoop capture (Linux monitor format), for `indoor decode`.",
            valueName: "file"))
    var btsnoop: String?

    /// The simulator options these arguments describe.
    var options: SimulatorOptions {
        var options = SimulatorOptions()
        options.seed = seed
        options.floors = floors
        options.roomsPerSide = rooms
        options.beaconsPerFloor = beacons
        options.devices = devices
        options.duration = duration
        options.shadowingSigma = sigma
        options.slowShadowingSigma = slowSigma
        options.pathLossExponent = exponent
        options.wallLoss = wallLoss
        options.floorLoss = floorLoss
        options.advertisingInterval = interval
        options.packetLoss = packetLoss
        return options
    }

    func validate() throws {
        if let problem = options.problems.first { throw ValidationError(problem) }
    }

    func run() throws {
        print(try writeDataset(), terminator: "")
    }

    /// Simulates, writes the files and returns the summary the command prints.
    func writeDataset() throws -> String {
        let progress = CommandProgress(label: "simulate")
        let simulated = try Simulator(options: options).run { part, done, total in
            progress.report("\(part) packets", done, total)
        }
        progress.finish()
        let folder = URL(fileURLWithPath: output)
        let manager = FileManager.default
        for (path, contents) in try simulated.files() {
            let url = folder.appendingPathComponent(path)
            let parent = url.deletingLastPathComponent()
            do {
                try manager.createDirectory(at: parent, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure.cannotCreateFolder(parent.path, error)
            }
            do {
                try Data(contents.utf8).write(to: url)
            } catch {
                throw CommandFailure.cannotWrite(url.path, error)
            }
        }
        var summary = Self.summary(simulated, folder: output)
        if let btsnoop {
            summary += try writeCapture(simulated, to: btsnoop)
        }
        return summary
    }

    /// Writes the test walkers' sightings as HCI LE advertising reports, one adapter per walker.
    private func writeCapture(_ simulated: SimulatedDataset, to path: String) throws -> String {
        let sightings = simulated.dataset.test.sightings
        // Node ids to beacon identities through one dictionary (not a search of the nodes per sighting).
        let capture = try BeaconCapture.btsnoop(sightings: simulated.beaconSightings(sightings))
        do {
            try Data(capture).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure.cannotWrite(path, error)
        }
        let beacons = simulated.dataset.nodes.count
        return "wrote \(path): \(sightings.count) advertisements from \(beacons) beacon\(beacons == 1 ? "" : "s")\n"
    }

    /// One paragraph saying what was written.
    static func summary(_ simulated: SimulatedDataset, folder: String) -> String {
        let data = simulated.dataset
        let floors = simulated.venue.floors.count
        let beacons = data.nodes.count
        var text =
            "wrote \(folder): \(floors) floor\(floors == 1 ? "" : "s"), \(beacons) beacon\(beacons == 1 ? "" : "s"); "
        text += "test: \(data.test.sightings.count) sightings, \(data.test.truth.count) truth rows"
        if let train = data.train {
            text += "; train: \(train.sightings.count) sightings, \(train.truth.count) truth rows"
        }
        return text + "\n"
    }
}
