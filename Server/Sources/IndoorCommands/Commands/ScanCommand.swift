import ArgumentParser
import Foundation
import IndoorAdvertising
import IndoorEvaluation
import IndoorModel
import IndoorPositioning
import IndoorSession

/// `indoor scan --venue VENUE.json --geofence ID --seconds N SOURCE`: the scan provider's answer over a recording.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan a geofence for N seconds over a recording (or the simulator) and print the result JSON.",
        discussion: """
            SOURCE is a sightings CSV (t,device,node,rssi[,tx]), JSON Lines (.jsonl) or a btsnoop capture (Android's \
            btsnoop_hci.log, btmon -w). The scan starts at the first sighting at or after --from and lasts --seconds \
            on the sightings' clock; the answer is the tracker's state at its end (docs/SCAN.md lists the keys). \
            --simulate scans a seeded simulated office instead (geofence 'office', calibration fitted on its \
            survey); --sweep measures the median and 90th-percentile error against scan length there.
            """)

    @Option(
        help: ArgumentHelp(
            "A venue JSON with a 'geofences' list (repeat for several venues), or a dataset folder.",
            discussion: "A dataset folder gives its venue.json, or else a venue of its nodes.csv serving the geofence "
                + "named after the folder."))
    var venue: [String] = []

    @Option(help: "The geofence id to scan.")
    var geofence: String?

    @Option(help: "Seconds to scan, on the sightings' clock.")
    var seconds: Double = 10

    @Argument(help: "The sightings: CSV, JSON Lines (.jsonl) or a btsnoop capture.")
    var source: String?

    @Flag(help: "Scan the seeded simulated office instead of a recording.")
    var simulate = false

    @Flag(help: "With --simulate: print the error against scan length (2, 5, 10, 15 s) instead of one result.")
    var sweep = false

    @Flag(
        name: .customLong("learn-survey"),
        help: "With --simulate: the scans learn from the simulated survey itself, not only its calibration.")
    var learnSurvey = false

    @Option(help: "The simulator's seed.")
    var seed: UInt64 = 1

    @Option(help: "Data time at which the scan may start, seconds (default: the first sighting).")
    var from: Double?

    @Option(help: "The device to locate (default: the one heard most often; with --simulate, walker-1).")
    var device: String?

    @Option(
        help: "The positioning method (\(MethodCatalog.Method.allCases.map(\.rawValue).joined(separator: ", "))).")
    var method: String = MethodCatalog.defaultName

    @Option(help: "A calibration JSON (indoor calibrate) for the venue's nodes.")
    var calibration: String?

    @Option(help: "The known location: latitude, WGS84 degrees.")
    var latitude: Double?

    @Option(help: "The known location: longitude, WGS84 degrees.")
    var longitude: Double?

    @Option(help: "The known location's accuracy, metres.")
    var accuracy: Double?

    @Option(
        help: ArgumentHelp(
            "A site survey of the scanned venue: a folder with sightings.csv and truth.csv, or a dataset with train/.",
            discussion: """
                The default method then tracks over a radio map learned from it (seconds to learn), and the \
                calibration is fitted on it unless --calibration is given.
                """,
            valueName: "folder"))
    var survey: String?

    func validate() throws {
        guard seconds.isFinite, seconds > 0, seconds <= IndoorScanProvider.longestScan else {
            throw ValidationError("--seconds must be more than 0 and at most \(Int(IndoorScanProvider.longestScan))")
        }
        guard MethodCatalog.Method(rawValue: method) != nil else {
            throw ValidationError("--method '\(method)' is not one of the catalogue's methods")
        }
        if (latitude == nil) != (longitude == nil) {
            throw ValidationError("--latitude and --longitude go together")
        }
        if let from, !from.isFinite { throw ValidationError("--from must be a finite number of seconds") }
        if simulate {
            guard source == nil, venue.isEmpty, survey == nil else {
                throw ValidationError(
                    "--simulate scans the simulated office: give no SOURCE, --venue or --survey")
            }
        } else {
            guard !sweep, !learnSurvey else { throw ValidationError("--sweep and --learn-survey need --simulate") }
            guard source != nil, !venue.isEmpty, geofence != nil else {
                throw ValidationError("give --venue, --geofence and a SOURCE (or --simulate)")
            }
        }
    }

    func run() throws {
        if sweep {
            let report = try ScanSweep(
                seed: seed, method: MethodCatalog.Method(rawValue: method) ?? .nonlinear, learnsSurvey: learnSurvey
            ).run()
            print(report.table())
            return
        }
        var problems = 0
        let json = try answer { problem in
            problems += 1
            FileHandle.standardError.write(Data((problem.description + "\n").utf8))
        }
        print(json)
        if problems > 0 { throw ExitCode(1) }
    }

    /// The whole scan without printing: the result JSON.
    ///
    /// The venues and the geofence are checked before the source is opened. The source is read in chunks, and only
    /// until the scan has ended: memory does not grow with the recording, and a 10 s scan at the start of a day's
    /// recording reads seconds of it, not the day.
    /// - Parameter problem: Told each row of the source that could not be read, as soon as it is found (the rest is
    ///   scanned).
    /// - Throws: ``IndoorModel/FormatError`` for a venue, calibration or source that cannot be read;
    ///   ``CommandFailure`` with the scan's error (unknown geofence, nothing heard, too few beacons).
    func answer(problem: (FormatError) -> Void = { _ in }) throws -> String {
        let known = latitude.flatMap { latitude in
            longitude.map { DeviceLocation(latitude: latitude, longitude: $0, horizontalAccuracy: accuracy) }
        }
        var options = IndoorScan.Options(
            method: MethodCatalog.Method(rawValue: method) ?? .nonlinear, device: device)
        let venues: [Venue]
        var simulated: [Sighting] = []
        if simulate {
            let office = try ScanSweep.office(seed: seed)
            var venue = office.venue
            venue.geofences = [geofence ?? ScanSweep.geofence]
            venues = [venue]
            options.device = device ?? "walker-1"
            options.calibration = office.dataset.train.map {
                CalibrationFitter().fit(nodes: venue.nodes, survey: $0)
            }
            if learnSurvey, let survey = office.dataset.train {
                options.calibration = nil
                options.surveys = [venue.id: survey]
            }
            simulated = office.dataset.test.sightings
        } else {
            venues = try venue.map { path in
                let (data, file) = try VenueInput.json(path)
                return try Venue.decodeJSON(data, file: file)
            }
        }
        if let calibration {
            options.calibration = try JSONFormat.decode(
                Calibration.self, from: try InputFile.contents(calibration), file: calibration)
        }
        var scan: IndoorScan
        do {
            let target = try ScanTarget(
                geofence: geofence ?? ScanSweep.geofence, venues: venues, knownLocation: known)
            if let survey {
                let read = try SurveyInput.read(survey, venue: target.venue)
                options.surveys[target.venue.id] = read
                FileHandle.standardError.write(
                    Data(
                        ("scan: learning from the survey \(survey) (\(read.sightings.count) sightings, "
                            + "\(read.truth.count) truth rows)\n").utf8))
            }
            scan = try IndoorScan(target: target, duration: seconds, knownLocation: known, options: options)
        } catch let error as ScanError {
            throw CommandFailure(error.message)
        }
        let start = from ?? -.infinity
        // Rows in time order (within the re-order window, as `indoor replay` takes them), from `--from` on, until the
        // scan has ended.
        var window = ReplayReorderWindow(seconds: ReplayRun.defaultReorderWindow)
        var ended = false
        let take = { (sighting: Sighting) -> Bool in
            guard !ended else { return true }
            for ready in window.push(sighting) where ready.time >= start {
                if scan.ingest(ready) {
                    ended = true
                    break
                }
            }
            return ended
        }
        if simulate {
            for sighting in simulated where take(sighting) { break }
        } else {
            try Self.read(source ?? "", problem: problem, take: take)
        }
        if !ended {
            for ready in window.drain() where ready.time >= start && scan.ingest(ready) { break }
        }
        switch scan.result() {
        case .success(let result): return result.json()
        case .failure(let error): throw CommandFailure(error.message)
        }
    }

    /// Reads the sightings of `path` (a btsnoop capture, by its first bytes; JSON Lines for `.jsonl`; CSV otherwise)
    /// in chunks, handing each to `take` in file order until it answers `true`.
    /// - Parameter problem: Told each row or record that could not be read (the rest is read on).
    /// - Throws: ``IndoorModel/FormatError`` for a file that cannot be read or is not a sightings file.
    static func read(
        _ path: String, problem: (FormatError) -> Void, take: (Sighting) -> Bool
    ) throws {
        let handle = try InputFile.open(path)
        defer { try? handle.close() }
        let magic = Array("btsnoop\0".utf8)
        let first = try InputFile.chunk(of: handle, path: path) ?? Data()
        if first.starts(with: magic) {
            var done = false
            do {
                try BtsnoopReader.decode(
                    fileAt: URL(fileURLWithPath: path),
                    onAdvertisement: { ad in
                        guard !done else { return }
                        let name = ad.adapter.map { ad.adapterName ?? "hci\($0)" } ?? "capture"
                        if let sighting = ad.sighting(device: name) { done = take(sighting) }
                    },
                    onProblem: { problem(FormatError(code: .corruptData, file: path, message: "\($0)")) })
            } catch let error as AdvertisingError {
                throw FormatError(code: .corruptData, file: path, message: "\(error)")
            }
            return
        }
        var pending: Data? = first
        var reader = try ReplaySightingsReader(
            file: path, format: ReplaySightingsReader.Format(fileName: path),
            read: {
                if let chunk = pending {
                    pending = nil
                    return chunk.isEmpty ? nil : chunk
                }
                return try InputFile.chunk(of: handle, path: path)
            })
        while let parsed = try reader.next() {
            parsed.problems.forEach(problem)
            for sighting in parsed.rows where take(sighting) { return }
        }
    }
}
