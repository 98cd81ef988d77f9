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

    @Option(parsing: .unconditional, help: "Floors of the building.")
    var floors: Int = SimulatorOptions().floors

    @Option(parsing: .unconditional, help: "Rooms on each side of the corridor, per floor (each 5 m wide).")
    var rooms: Int = SimulatorOptions().roomsPerSide

    @Option(parsing: .unconditional, help: "Beacons per floor.")
    var beacons: Int = SimulatorOptions().beaconsPerFloor

    @Option(parsing: .unconditional, help: "People walking in test/.")
    var devices: Int = SimulatorOptions().devices

    @Option(parsing: .unconditional, help: "Seconds of walking in test/.")
    var duration: Double = SimulatorOptions().duration

    @Option(parsing: .unconditional, help: "Shadowing standard deviation per packet, dB.")
    var sigma: Double = SimulatorOptions().shadowingSigma

    @Option(
        parsing: .unconditional, help: "Slow shadowing standard deviation per beacon and phone, dB (0 turns it off).")
    var slowSigma: Double = SimulatorOptions().slowShadowingSigma

    @Option(parsing: .unconditional, help: "Path-loss exponent.")
    var exponent: Double = SimulatorOptions().pathLossExponent

    @Option(parsing: .unconditional, help: "Loss per wall crossed, dB.")
    var wallLoss: Double = SimulatorOptions().wallLoss

    @Option(parsing: .unconditional, help: "Loss per floor between beacon and phone, dB.")
    var floorLoss: Double = SimulatorOptions().floorLoss

    @Option(parsing: .unconditional, help: "Seconds between a beacon's advertisements.")
    var interval: Double = SimulatorOptions().advertisingInterval

    @Option(parsing: .unconditional, help: "Fraction of packets lost, 0...1.")
    var packetLoss: Double = SimulatorOptions().packetLoss

    @Option(parsing: .unconditional, help: "Random seed.")
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

    @Flag(
        help: ArgumentHelp(
            "Replace an existing dataset folder (and --btsnoop file) that an earlier `indoor simulate` wrote.",
            discussion: """
                Without --force, DIR must be new or empty and the --btsnoop file must not exist. With --force, \
                DIR is replaced only when everything in it is a file `indoor simulate` writes (README.md, \
                venue.json, nodes.csv, train/ and test/ with sightings.csv and truth.csv, and the --btsnoop file \
                when it is inside DIR); any other file there is refused, --force or not. The new dataset is \
                written to a hidden sibling folder and swapped into place at the end, so an interrupted run \
                leaves the old folder as it was.
                """))
    var force = false

    /// The files `indoor simulate` writes in DIR, relative to it.
    static let datasetFiles: Set<String> = [
        "README.md", "venue.json", "nodes.csv", "train/sightings.csv", "train/truth.csv", "test/sightings.csv",
        "test/truth.csv",
    ]

    func run() throws {
        try writeDataset { print($0, terminator: "") }
    }

    /// Simulates, writes the files and returns the summary the command prints.
    func writeDataset() throws -> String {
        var text = ""
        try writeDataset { text += $0 }
        return text
    }

    /// Simulates, writes the files and emits the summary: the dataset's before the capture is written.
    ///
    /// Every output path is checked before the simulation starts (see ``OutputFolder`` and ``OutputFile``).
    ///
    /// - Parameter emit: Told each part of the summary as soon as it is true.
    /// - Throws: ``CommandFailure`` naming the path that cannot be written.
    func writeDataset(emit: (String) -> Void) throws {
        var owned = Self.datasetFiles
        if let btsnoop {
            let folder = OutputFile.resolved(output) + "/"
            let capture = OutputFile.resolved(btsnoop)
            if capture.hasPrefix(folder) {
                let relative = String(capture.dropFirst(folder.count))
                if Self.datasetFiles.contains(relative)
                    || Self.datasetFiles.contains(where: { $0.hasPrefix(relative + "/") })
                {
                    throw CommandFailure(
                        "'\(btsnoop)' is also a file of the dataset written to '\(output)'; choose another --btsnoop path"
                    )
                }
                owned.insert(relative)
            } else {
                _ = try OutputFile(path: btsnoop, force: force)
            }
        }
        let folder = try OutputFolder(path: output, force: force, ownedFiles: owned, command: "indoor simulate")
        let progress = CommandProgress(label: "simulate")
        let simulated = try Simulator(options: options).run { part, done, total in
            progress.report("\(part) packets", done, total)
        }
        progress.finish()
        try folder.write(files: try simulated.files().map { ($0.path, Data($0.contents.utf8)) })
        emit(Self.summary(simulated, folder: output))
        if let btsnoop {
            // Inside DIR, the capture goes into the folder just written (any old one went with the old folder).
            emit(try writeCapture(simulated, to: try OutputFile(path: btsnoop, force: force)))
        }
    }

    /// Writes the test walkers' sightings as HCI LE advertising reports, one adapter per walker.
    private func writeCapture(_ simulated: SimulatedDataset, to file: OutputFile) throws -> String {
        let sightings = simulated.dataset.test.sightings
        // Node ids to beacon identities through one dictionary (not a search of the nodes per sighting).
        let capture = try BeaconCapture.btsnoop(sightings: simulated.beaconSightings(sightings))
        try file.write(Data(capture))
        let beacons = simulated.dataset.nodes.count
        return
            "wrote \(file.path): \(sightings.count) advertisements from \(beacons) beacon\(beacons == 1 ? "" : "s")\n"
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
