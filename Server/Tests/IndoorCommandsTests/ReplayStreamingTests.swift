import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorPositioning
import IndoorSession
import Testing

@testable import IndoorCommands

/// Two nodes 20 m apart and a fenced room round the east one.
private let venueJSON = #"""
    {"id":"tiny","nodes":[{"id":"n1","x":0,"y":0},{"id":"n2","x":20,"y":0}],
     "zones":[{"id":"east","name":"East room","fences":[{"polygon":[[15,-5],[25,-5],[25,5],[15,5]]}],
       "checkOutTime":2}]}
    """#

/// The same walk in time order, with a bad row (line 5) and a blank line.
private let walk = """
    t,device,node,rssi
    0,p,n1,-59
    1,p,n1,-60
    10,p,n2,-59
    x,p,n2,-59

    11,p,n2,-58
    20,p,n1,-59
    22,p,n1,-59

    """

private func replay(
    _ sightings: String, file: String = "walk.csv", chunkSize: Int = 1 << 20, window: Double = 10,
    method: String? = nil, calibration: Calibration? = nil
) throws -> (lines: [String], problems: [String], summary: ReplaySummary) {
    var lines: [String] = []
    let outcome = try ReplayCommand.replay(
        venue: Data(venueJSON.utf8), venueFile: "venue.json", sightings: sightings, sightingsFile: file,
        method: method, calibration: calibration, reorderWindow: window, chunkSize: chunkSize
    ) { lines.append($0) }
    return (lines, outcome.problems.map(\.description), outcome.summary)
}

@Suite("indoor replay streams its input")
struct ReplayStreamingTests {
    @Test("any chunk size gives the same lines, problems and summary as the whole file", arguments: [1, 2, 7, 64])
    func chunkSizes(chunkSize: Int) throws {
        let whole = try replay(walk)
        #expect(whole.problems == ["walk.csv:5: t 'x' is not a number"])
        #expect(whole.lines.count == 7)  // the device's first fix waits half a second, so its first sighting has none
        let chunked = try replay(walk, chunkSize: chunkSize)
        #expect(chunked.lines == whole.lines)
        #expect(chunked.problems == whole.problems)
        #expect(chunked.summary == whole.summary)
        let jsonl = try SightingsJSONLines.text(try DatasetCSV.parseSightings(walk).rows)
        let streamedJSONL = try replay(jsonl, file: "walk.jsonl", chunkSize: chunkSize)
        #expect(streamedJSONL.lines == whole.lines)
        #expect(streamedJSONL.problems.isEmpty)
    }

    @Test("rows out of order within the window replay as if sorted; later ones are replayed and counted")
    func reorderWindow() throws {
        let sorted = try replay(walk)
        // 10 s comes after 11 s: within a 10 s window.
        let swapped = walk.replacingOccurrences(of: "10,p,n2,-59\n", with: "").replacingOccurrences(
            of: "11,p,n2,-58\n", with: "11,p,n2,-58\n10,p,n2,-59\n")
        let within = try replay(swapped)
        #expect(within.lines == sorted.lines)
        #expect(within.summary.late == 0)
        // With no window, the 10 s row is late: replayed after the 11 s one, counted and named in the summary.
        let strict = try replay(swapped, window: 0)
        #expect(strict.summary.late == 1)
        #expect(strict.summary.sightings == sorted.summary.sightings)
        #expect(
            strict.summary.description.hasSuffix(
                "; 1 sightings out of time order by more than the 0 s re-order window (replayed as they came)"))
    }

    @Test("a window holds back rows only until one a window newer arrives")
    func windowRelease() {
        var window = ReplayReorderWindow(seconds: 5, maximumRows: 3)
        let at = { (time: Double) in Sighting(time: time, device: "d", node: "n", rssi: -60) }
        #expect(window.push(at(10)).isEmpty)
        #expect(window.push(at(12)).isEmpty)
        #expect(window.push(at(11)).isEmpty)
        #expect(window.push(at(15)).map(\.time) == [10])
        // Beyond three rows waiting, the oldest goes on.
        #expect(window.push(at(14)).map(\.time) == [11])
        #expect(window.push(at(1)).map(\.time) == [1])
        #expect(window.late == 1)
        #expect(window.drain().map(\.time) == [12, 14, 15])
    }

    @Test(
        "the start of the file is checked before any row: binary data and a first line without end are refused",
        arguments: [
            (
                "walk.csv",
                "walk.csv:1: not a text file (byte 0x00 at offset 0); expected a sightings CSV with the header t,device,node,rssi"
            ),
            (
                "walk.jsonl",
                "walk.jsonl:1: not a text file (byte 0x00 at offset 0); expected JSON Lines, one sighting object per line"
            ),
        ])
    func binaryStart(file: String, message: String) {
        // 1 MiB of zero bytes, read in 4 KiB chunks: refused after the first 64 KiB.
        let zeros = Data(count: 1 << 20)
        var reads = 0
        var offset = 0
        let error = #expect(throws: FormatError.self) {
            _ = try ReplayCommand.replay(
                venue: Data(venueJSON.utf8), venueFile: "venue.json", sightingsFile: file,
                read: {
                    reads += 1
                    guard offset < zeros.count else { return nil }
                    offset += 4096
                    return zeros.prefix(4096)
                },
                options: ReplayCommand.Options(), problem: { _ in }, write: { _ in })
        }
        #expect(error?.description == message)
        #expect(reads == 16)
        let long = #expect(throws: FormatError.self) { try replay(String(repeating: "t", count: 70_000)) }
        #expect(
            long?.description
                == "walk.csv:1: no end of line in the first 64 KiB; expected a sightings CSV with the header t,device,node,rssi"
        )
        let header = #expect(throws: FormatError.self) { try replay("time,device,node,rssi\n0,p,n1,-59\n") }
        #expect(header?.description == "walk.csv:1: header has no 't' column (expected t,device,node,rssi)")
    }

    @Test("a line longer than 1 MiB is reported and skipped; the lines after it are replayed")
    func overlongLine() throws {
        let jsonl =
            #"{"t":0,"device":"p","node":"n1","rssi":-59}"# + "\n" + String(repeating: " ", count: 70_000)
            + String(repeating: "x", count: 1_100_000) + "\n" + #"{"t":1,"device":"p","node":"n1","rssi":-59}"# + "\n"
        let outcome = try replay(jsonl, file: "walk.jsonl", chunkSize: 100_000)
        #expect(outcome.problems == ["walk.jsonl:2: line is longer than 1 MiB; skipped"])
        #expect(outcome.summary.sightings == 2)
    }

    @Test("--calibration reaches the positioning engine; --reorder-window and --calibration parse")
    func calibration() throws {
        // Three nodes, so nonlinear trilaterates; a calibration that says the nodes are 10 dB louder at 1 m
        // moves the fix.
        var lines: [[String]] = []
        let venue = #"{"id":"v","nodes":[{"id":"n1","x":0,"y":0},{"id":"n2","x":20,"y":0},{"id":"n3","x":10,"y":15}]}"#
        let sightings = "t,device,node,rssi\n0,p,n1,-70\n0,p,n2,-75\n0,p,n3,-72\n1,p,n1,-70\n"
        var loud = Calibration()
        loud.pooled = NodeCalibration(rssiAtOneMeter: -49, pathLossExponent: 2)
        for calibration in [nil, loud] {
            var out: [String] = []
            _ = try ReplayCommand.replay(
                venue: Data(venue.utf8), venueFile: "v.json", sightings: sightings, sightingsFile: "s.csv",
                method: "nonlinear", calibration: calibration
            ) { out.append($0) }
            lines.append(out)
        }
        #expect(lines[0].count == 1)  // one fix, at 1 s: the first waits half a second for more readings
        #expect(lines[0] != lines[1])
        let command = try IndoorCommand.parseAsRoot([
            "replay", "--venue", "v.json", "s.csv", "--calibration", "c.json", "--reorder-window", "2.5",
        ])
        let parsed = try #require(command as? ReplayCommand)
        #expect(parsed.calibration == "c.json")
        #expect(parsed.reorderWindow == 2.5)
        #expect(throws: (any Error).self) {
            try IndoorCommand.parseAsRoot(["replay", "--venue", "v.json", "s.csv", "--reorder-window", "-1"])
        }
    }

    @Test("a calibration file that is not valid JSON is named with its line and column")
    func badCalibrationFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).json")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("{\"pooled\": {\"rssiAtOneMeter\": -59,\n \"pathLossExponent\" 2}}".utf8).write(
            to: URL(fileURLWithPath: path))
        let error = #expect(throws: FormatError.self) { try ReplayCommand.readCalibration(path) }
        #expect(error?.description == "\(path): line 2, column 21: expected ':' after an object key, found '2'")
    }

    @Test("a folder or a missing file where a file should be is said in those words")
    func folderOrMissingFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let venue = folder.appendingPathComponent("venue.json")
        try Data(#"{"id":"v","nodes":[{"id":"a","x":0,"y":0}]}"#.utf8).write(to: venue)
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        for (venuePath, sightings, message) in [
            (venue.path, folder.path, "\(folder.path): a folder, not a file"),
            (venue.path, folder.path + "/walk.csv", "\(folder.path)/walk.csv: no such file"),
            // A folder as the venue is a dataset's: its venue.json is read, and the missing sightings said.
            (folder.path, folder.path + "/walk.csv", "\(folder.path)/walk.csv: no such file"),
            (
                empty.path, folder.path + "/walk.csv",
                "\(empty.path): a folder with neither venue.json nor nodes.csv; give a venue JSON file or a dataset "
                    + "folder"
            ),
        ] {
            let command = try ReplayCommand.parse(["--venue", venuePath, sightings])
            let error = #expect(throws: FormatError.self) { try command.run() }
            #expect(error?.description == message)
        }
        let calibration = #expect(throws: FormatError.self) { try ReplayCommand.readCalibration(folder.path) }
        #expect(calibration?.description == "\(folder.path): a folder, not a file")
    }

    @Test("--survey takes a survey folder or a dataset's train/, and says what is wrong with one it cannot use")
    func surveyFolders() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let venue = try Venue.decodeJSON(
            Data(#"{"id":"v","nodes":[{"id":"a","x":0,"y":0},{"id":"b","x":9,"y":0}]}"#.utf8))
        let train = folder.appendingPathComponent("dataset/train")
        try FileManager.default.createDirectory(at: train, withIntermediateDirectories: true)
        try Data("t,device,node,rssi\n0,s,a,-60\n0.5,s,b,-70\n1,s,zz,-80\n".utf8)
            .write(to: train.appendingPathComponent("sightings.csv"))
        try Data("t,device,x,y,z,floor\n0,s,1,0,,\n1,s,1,0,,\n".utf8).write(
            to: train.appendingPathComponent("truth.csv"))
        // The dataset folder and its train/ give the same survey.
        let fromDataset = try SurveyInput.read(folder.appendingPathComponent("dataset").path, venue: venue)
        #expect(try SurveyInput.read(train.path, venue: venue) == fromDataset)
        #expect(fromDataset.sightings.count == 3 && fromDataset.truth.count == 2)
        // A survey of another venue's nodes, a missing folder, a file, a folder holding no survey, a bad row.
        let other = try Venue.decodeJSON(Data(#"{"id":"w","nodes":[{"id":"q","x":0,"y":0}]}"#.utf8))
        let cases: [(String, Venue, String)] = [
            (train.path, other, "\(train.path): none of the survey's 3 sightings is of a node of venue 'w' (q)"),
            (folder.path + "/nowhere", venue, "survey folder '\(folder.path)/nowhere' does not exist"),
            (
                train.path + "/truth.csv", venue,
                "'\(train.path)/truth.csv' is a file; expected a survey folder (sightings.csv and truth.csv, or a "
                    + "dataset with train/)"
            ),
            (
                folder.path, venue,
                "'\(folder.path)' holds no survey: expected sightings.csv and truth.csv in it, or a train/ folder "
                    + "holding them"
            ),
        ]
        for (path, venue, message) in cases {
            let error = #expect(throws: FormatError.self) { try SurveyInput.read(path, venue: venue) }
            #expect(error?.description == message)
        }
        try Data("t,device,node,rssi\n0,s,a,loud\n".utf8).write(to: train.appendingPathComponent("sightings.csv"))
        let bad = #expect(throws: FormatError.self) { try SurveyInput.read(train.path, venue: venue) }
        #expect(bad?.description == "\(train.path)/sightings.csv:2: rssi 'loud' is not a number")
    }

    @Test("the help offers the methods that need no survey, names the default and --survey")
    func methodsInHelp() {
        #expect(!ReplayRun.methodNames.contains { $0.hasPrefix("knn") })
        #expect(ReplayRun.methodNames.contains("weighted-centroid"))
        #expect(ReplayRun.methodNames.contains("blend+track"))
        let help = ReplayCommand.helpMessage()
        #expect(!help.contains("knn,"))
        #expect(help.contains("Default: auto"))
        #expect(help.contains("--survey <folder>"))
    }

    @Test("the default method is accurate on a simulated office: median error below 3 m, where nonlinear is not")
    func defaultAccuracy() throws {
        var options = SimulatorOptions()
        options.seed = 7
        options.duration = 90
        options.devices = 2
        let simulated = try Simulator(options: options).run()
        let tracks = TruthTrack.tracks(simulated.dataset.test.truth)
        /// Median horizontal error of the fixes against the truth interpolated at each fix's time.
        func median(
            _ configuration: SessionConfiguration?, calibration: Calibration? = nil, survey: Recording? = nil
        ) throws -> Double {
            var fixes: [Fix] = []
            if let configuration {
                var session = try LocationSession(configuration)
                for case .fix(let fix) in session.ingest(simulated.dataset.test.sightings) { fixes.append(fix) }
            } else {
                let run = ReplayRun(venue: simulated.venue, calibration: calibration, survey: survey)
                try run.run(simulated.dataset.test.sightings) { line in
                    if let fix = try? JSONDecoder().decode(Fix.self, from: Data(line.utf8)) { fixes.append(fix) }
                }
            }
            var errors: [Double] = []
            var misses = 0
            for fix in fixes {
                if let truth = tracks[fix.device]?.position(at: fix.time) {
                    errors.append(fix.position.horizontal.distance(to: truth.point))
                } else {
                    misses += 1
                }
            }
            #expect(errors.count > 100)
            return try #require(ErrorSummary(errors: errors, misses: misses).medianMeters)
        }
        let replayDefault = try median(nil)
        #expect(replayDefault < 3)
        // Uncalibrated nonlinear with weighted-centroid falling back, replay's default before: well above.
        let previousDefault = try median(
            SessionConfiguration(venue: simulated.venue, method: MethodCatalog.Selection(.nonlinear)))
        #expect(previousDefault > 3)
        // With a calibration fitted on the survey (train/, not the scored test/), the default (trilaterating where
        // fewer than five nodes are heard) is better still.
        let survey = try #require(simulated.dataset.train)
        let calibration = CalibrationFitter().fit(nodes: simulated.venue.nodes, survey: survey)
        let calibrated = try median(nil, calibration: calibration)
        #expect(calibrated < replayDefault)
    }

    @Test("with --survey the default tracks over the survey's radio map: fewer large errors than without")
    func surveyedAccuracy() throws {
        // A smaller office than the default one (learning from the survey takes a while in the tests' debug build).
        var options = SimulatorOptions()
        options.roomsPerSide = 4
        options.seed = 11
        options.duration = 120
        options.devices = 3
        let simulated = try Simulator(options: options).run()
        let survey = try #require(simulated.dataset.train)
        let tracks = TruthTrack.tracks(simulated.dataset.test.truth)
        func fixes(survey: Recording?) throws -> [Fix] {
            var fixes: [Fix] = []
            try ReplayRun(venue: simulated.venue, survey: survey).run(simulated.dataset.test.sightings) { line in
                if let fix = try? JSONDecoder().decode(Fix.self, from: Data(line.utf8)) { fixes.append(fix) }
            }
            return fixes
        }
        func summary(_ fixes: [Fix]) throws -> ErrorSummary {
            let errors = fixes.compactMap { fix in
                tracks[fix.device]?.position(at: fix.time).map { fix.position.horizontal.distance(to: $0.point) }
            }
            #expect(errors.count > 300)
            return ErrorSummary(errors: errors, misses: 0)
        }
        let plain = try fixes(survey: nil)
        let surveyed = try fixes(survey: survey)
        #expect(surveyed.count == plain.count)
        // The filter answers (named `auto`); the weighted centroid only where it could not.
        #expect(surveyed.filter { $0.method == "auto" }.count > surveyed.count * 9 / 10)
        // On an office this small the default without a survey is as near at the median (1.18 m against the
        // survey's 1.22 here): what the survey's map buys is in the tail, the 90th percentile (2.12 against 2.15 m).
        let withSurvey = try summary(surveyed)
        let without = try summary(plain)
        let tail = (with: try #require(withSurvey.p90Meters), without: try #require(without.p90Meters))
        #expect(tail.with < tail.without, "90th percentiles: \(tail.with) m with the survey, \(tail.without) m without")
        #expect(try #require(withSurvey.medianMeters) < 1.6)
    }
}
