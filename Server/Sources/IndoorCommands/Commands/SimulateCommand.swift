import ArgumentParser
import Foundation
import IndoorAdvertising
import IndoorEvaluation
import IndoorModel
import IndoorPositioning

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

    @Option(parsing: .unconditional, help: "Standard deviation of the beacons' power at 1 m about -59 dBm, dB.")
    var beaconPowerSigma: Double = SimulatorOptions().beaconPowerSigma

    @Flag(
        help: ArgumentHelp(
            "The nodes also hear each other: test/ gets their sightings of one another (device node:<id>).",
            discussion: """
                Each node then has a receiver gain offset of its own (--node-offset-sigma), and venue.json gives \
                no node a calibration, so an engine without a survey calibrates itself from these links.
                """))
    var nodeLinks = false

    @Option(parsing: .unconditional, help: "Standard deviation of each node's receiver gain offset, dB (--node-links).")
    var nodeOffsetSigma: Double = SimulatorOptions().nodeOffsetSigma

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
        options.beaconPowerSigma = beaconPowerSigma
        options.nodeLinks = nodeLinks
        options.nodeOffsetSigma = nodeOffsetSigma
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
    /// Every output path is checked before the simulation starts (see ``OutputFolder`` and ``OutputFile``). The
    /// rows are written as they are simulated (``Simulator/stream(sighting:truth:progress:)``), in pieces of about
    /// 1 MiB, and so is the capture: memory does not grow with devices × duration. The files are byte-identical to
    /// ``SimulatedDataset/files()`` of ``Simulator/run(progress:)`` for the same options.
    ///
    /// - Parameter emit: Told each part of the summary as soon as it is true.
    /// - Throws: ``CommandFailure`` naming the path that cannot be written.
    func writeDataset(emit: (String) -> Void) throws {
        var owned = Self.datasetFiles
        // The capture's path relative to DIR when it goes inside DIR (it is then written with the dataset).
        var captureInside: String?
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
                captureInside = relative
            } else {
                _ = try OutputFile(path: btsnoop, force: force)
            }
        }
        let folder = try OutputFolder(path: output, force: force, ownedFiles: owned, command: "indoor simulate")
        let simulator = Simulator(options: options)
        let venue = try simulator.venue()
        // A capture outside DIR goes to a temporary file beside it, renamed into place after the dataset.
        let outsideCapture = try btsnoop.flatMap { path in
            captureInside == nil ? try OutputFile(path: path, force: force).open() : nil
        }
        let progress = CommandProgress(label: "simulate")
        var counts = SimulationCounts()
        try folder.write { staging in
            func file(_ relative: String) throws -> StreamedFile {
                try StreamedFile(
                    url: staging.appendingPathComponent(relative),
                    shownPath: folder.url.appendingPathComponent(relative).path)
            }
            var splits: [Simulator.Split: SplitFiles] = [:]
            for split in [Simulator.Split.train, .test] {
                splits[split] = try SplitFiles(
                    sightings: file("\(split.rawValue)/sightings.csv"), truth: file("\(split.rawValue)/truth.csv"))
            }
            let insideCapture = try captureInside.map(file)
            var capture: BeaconCaptureWriter?
            if btsnoop != nil {
                // Node ids to beacon identities through one dictionary (not a search of the nodes per sighting).
                let beacons = Dictionary(
                    venue.nodes.compactMap { node in node.beacon.map { (node.id, $0) } },
                    uniquingKeysWith: { first, _ in first })
                capture = BeaconCaptureWriter { source in
                    if case .node(let id) = source, let beacon = beacons[id] { return beacon }
                    return BeaconCapture.beaconIdentity(source)
                }
            }
            func writeCapture() throws {
                guard var writer = capture else { return }
                let bytes = writer.takeBytes()
                capture = writer
                if let insideCapture { try insideCapture.append(bytes) }
                if let outsideCapture { try outsideCapture.write(Data(bytes)) }
            }
            let simulated = try simulator.stream(
                sighting: { split, sighting in
                    counts.add(sightingOf: split)
                    try splits[split]?.append(sighting)
                    // The capture is the walkers' phones; the nodes' sightings of each other are not in it.
                    if split == .test, capture != nil,
                        !sighting.device.hasPrefix(NodeLinkCalibration.nodeDevicePrefix)
                    {
                        try capture?.append(sighting)
                        if let pending = capture?.pendingByteCount, pending >= 1 << 20 { try writeCapture() }
                    }
                },
                truth: { split, row in
                    counts.add(truthOf: split)
                    try splits[split]?.append(row)
                },
                progress: { part, done, total in progress.report("\(part) packets", done, total) })
            progress.finish()
            for files in splits.values { try files.close() }
            try writeCapture()
            try insideCapture?.close()
            for (relative, contents) in [
                ("README.md", simulated.readme(counts: counts)),
                ("venue.json", String(decoding: try venue.encodeJSON(), as: UTF8.self) + "\n"),
                ("nodes.csv", DatasetCSV.nodesText(venue.nodes)),
            ] {
                let written = try file(relative)
                try written.append(contents)
                try written.close()
            }
        }
        emit(Self.summary(floors: venue.floors.count, beacons: venue.nodes.count, counts: counts, folder: output))
        if let btsnoop {
            try outsideCapture?.commit()
            let beacons = venue.nodes.count
            emit(
                "wrote \(btsnoop): \(counts.testSightings) advertisements from \(beacons) beacon\(beacons == 1 ? "" : "s")\n"
            )
        }
    }

    /// The two files of one split, each fed rows in batches of 4096 (formatted by ``DatasetCSV``).
    private final class SplitFiles {
        let sightings: StreamedFile
        let truth: StreamedFile
        private var sightingBatch: [Sighting] = []
        private var truthBatch: [TruthPoint] = []
        private static let batchSize = 4096

        init(sightings: StreamedFile, truth: StreamedFile) throws {
            self.sightings = sightings
            self.truth = truth
            try sightings.append(DatasetCSV.sightingsHeader + "\n")
            try truth.append(DatasetCSV.truthHeader + "\n")
        }

        func append(_ sighting: Sighting) throws {
            sightingBatch.append(sighting)
            if sightingBatch.count >= Self.batchSize { try flushSightings() }
        }

        func append(_ row: TruthPoint) throws {
            truthBatch.append(row)
            if truthBatch.count >= Self.batchSize { try flushTruth() }
        }

        func close() throws {
            try flushSightings()
            try flushTruth()
            try sightings.close()
            try truth.close()
        }

        /// The rows of a batch: the writer's text without its header line (the file has one already). Simulated
        /// sightings carry no tx power, so there is no `tx` column, as in ``DatasetCSV/sightingsText(_:withTx:)``.
        private func flushSightings() throws {
            guard !sightingBatch.isEmpty else { return }
            let text = DatasetCSV.sightingsText(sightingBatch, withTx: false)
            try sightings.append(String(text.utf8.dropFirst(DatasetCSV.sightingsHeader.utf8.count + 1)) ?? "")
            sightingBatch.removeAll(keepingCapacity: true)
        }

        private func flushTruth() throws {
            guard !truthBatch.isEmpty else { return }
            let text = DatasetCSV.truthText(truthBatch)
            try truth.append(String(text.utf8.dropFirst(DatasetCSV.truthHeader.utf8.count + 1)) ?? "")
            truthBatch.removeAll(keepingCapacity: true)
        }
    }

    /// One paragraph saying what was written.
    static func summary(floors: Int, beacons: Int, counts: SimulationCounts, folder: String) -> String {
        var text =
            "wrote \(folder): \(floors) floor\(floors == 1 ? "" : "s"), \(beacons) beacon\(beacons == 1 ? "" : "s"); "
        text += "test: \(counts.testSightings) sightings, \(counts.testTruth) truth rows"
        text += "; train: \(counts.trainSightings) sightings, \(counts.trainTruth) truth rows"
        return text + "\n"
    }
}
