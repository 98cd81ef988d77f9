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

    @Option(help: "A venue JSON with a 'geofences' list (repeat for several venues).")
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
            guard source == nil, venue.isEmpty else {
                throw ValidationError("--simulate scans the simulated office: give no SOURCE and no --venue")
            }
        } else {
            guard !sweep else { throw ValidationError("--sweep needs --simulate") }
            guard source != nil, !venue.isEmpty, geofence != nil else {
                throw ValidationError("give --venue, --geofence and a SOURCE (or --simulate)")
            }
        }
    }

    func run() throws {
        if sweep {
            let report = try ScanSweep(seed: seed, method: MethodCatalog.Method(rawValue: method) ?? .nonlinear).run()
            print(report.table())
            return
        }
        let (json, problems) = try answer()
        for problem in problems {
            FileHandle.standardError.write(Data((problem.description + "\n").utf8))
        }
        print(json)
        if !problems.isEmpty { throw ExitCode(1) }
    }

    /// The whole scan without printing: the result JSON and the rows of the source that could not be read.
    /// - Throws: ``IndoorModel/FormatError`` for a venue, calibration or source that cannot be read;
    ///   ``CommandFailure`` with the scan's error (unknown geofence, nothing heard, too few beacons).
    func answer() throws -> (json: String, problems: [FormatError]) {
        let known = latitude.flatMap { latitude in
            longitude.map { DeviceLocation(latitude: latitude, longitude: $0, horizontalAccuracy: accuracy) }
        }
        var options = IndoorScan.Options(
            method: MethodCatalog.Method(rawValue: method) ?? .nonlinear, device: device)
        let venues: [Venue]
        let sightings: [Sighting]
        var problems: [FormatError] = []
        if simulate {
            let simulated = try ScanSweep.office(seed: seed)
            var office = simulated.venue
            office.geofences = [geofence ?? ScanSweep.geofence]
            venues = [office]
            options.device = device ?? "walker-1"
            options.calibration = simulated.dataset.train.map {
                CalibrationFitter().fit(nodes: office.nodes, survey: $0)
            }
            sightings = simulated.dataset.test.sightings
        } else {
            venues = try venue.map { try Venue.decodeJSON(try Self.read($0), file: $0) }
            let read = try Self.sightings(source ?? "")
            sightings = read.rows
            problems = read.problems
        }
        if let calibration {
            options.calibration = try JSONFormat.decode(
                Calibration.self, from: try Self.read(calibration), file: calibration)
        }
        let target: ScanTarget
        var scan: IndoorScan
        do {
            target = try ScanTarget(geofence: geofence ?? ScanSweep.geofence, venues: venues, knownLocation: known)
            scan = try IndoorScan(target: target, duration: seconds, knownLocation: known, options: options)
        } catch let error as ScanError {
            throw CommandFailure(error.message)
        }
        let ordered = sightings.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        for (_, sighting) in ordered where sighting.time >= (from ?? -.infinity) && scan.ingest(sighting) {
            break
        }
        switch scan.result() {
        case .success(let result): return (result.json(), problems)
        case .failure(let error): throw CommandFailure(error.message)
        }
    }

    /// The sightings of `path`: a btsnoop capture (by its first bytes), JSON Lines (`.jsonl`) or CSV.
    static func sightings(_ path: String) throws -> Parsed<Sighting> {
        let data = try read(path)
        if data.starts(with: Array("btsnoop\0".utf8)) {
            var rows: [Sighting] = []
            var problems: [FormatError] = []
            do {
                try BtsnoopReader.decode(
                    fileAt: URL(fileURLWithPath: path),
                    onAdvertisement: { ad in
                        let name = ad.adapter.map { ad.adapterName ?? "hci\($0)" } ?? "capture"
                        if let sighting = ad.sighting(device: name) { rows.append(sighting) }
                    },
                    onProblem: { problems.append(FormatError(code: .corruptData, file: path, message: "\($0)")) })
            } catch let error as AdvertisingError {
                throw FormatError(code: .corruptData, file: path, message: "\(error)")
            }
            return Parsed(rows: rows, problems: problems)
        }
        let text = String(decoding: data, as: UTF8.self)
        if path.lowercased().hasSuffix(".jsonl") { return SightingsJSONLines.parse(text, file: path) }
        return try DatasetCSV.parseSightings(text, file: path)
    }

    static func read(_ path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw FormatError(
                code: .missingFile, file: path, message: "cannot read the file (\(error.localizedDescription))")
        }
    }
}
