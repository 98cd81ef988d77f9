import Foundation
import IndoorCoreLocation
import IndoorModel
import IndoorSession

#if canImport(FoundationNetworking)
    // URLSession's requests on Linux (the survey put to the server).
    import FoundationNetworking
#endif

#if !canImport(CoreLocation)
    // On Linux the Apple shell is compiled against the shim (Sources/CoreLocationShell, Sources/CoreLocationShim).
    import CoreLocationShell
    import CoreLocationShim
#endif

// The Swift examples of the DocC catalogs (Sources/<Target>/<Target>.docc/*.md), compiled here as written with the
// products' public API only. DocCExamplesTests checks that every Swift block of every catalog appears in this file
// (its `import` lines among this file's imports, the rest verbatim at any indentation), so an example that stops
// compiling, or a catalog that changes an example without this file, fails a test. The names the examples take from
// their surroundings (`venue`, `radio`, `scanner`, `indoor`, `show`, `surveyed`, `truth`, `SomeLocationSDK`) are
// the parameters and declarations around them.

/// Stands for a location SDK that takes an indoor provider type.
@MainActor
enum SomeLocationSDK {
    /// The provider type the SDK calls.
    static var indoorProvider: Any.Type?
}

// AddingIndoorLocationToAnIOSApp.md, "Ranging: beacons in, sightings out".
@MainActor
final class Indoor {
    let venue: Venue
    let radio: CoreLocationBeaconSource
    let scanner: IndoorScanner

    init(venueJSON: Data) throws {
        venue = try Venue.decodeJSON(venueJSON)
        let conditions = Set(venue.nodes.compactMap { $0.beacon?.uuid }).map { BeaconCondition(uuid: $0) }
        radio = CoreLocationBeaconSource(conditions: conditions)
        let radio = radio
        scanner = IndoorScanner(venues: [venue], authorization: .notDetermined, clock: ContinuousClock()) {
            radio.sightings()  // a new stream per opening; ranging runs while one is open
        }
        let scanner = scanner
        radio.onAuthorization = { status in Task { await scanner.setAuthorization(status) } }
    }
}

/// The other examples, each in a function whose parameters are the names it takes from its surroundings.
@MainActor
enum DocCExamples {
    /// IndoorCoreLocation.md: an SDK that declares its provider with CoreLocation's types.
    static func coreLocationProvider(scanner: IndoorScanner) {
        IndoorScanProvider.register(scanner)  // an IndoorScanner over the app's radio and venues
        SomeLocationSDK.indoorProvider = IndoorCLScanProvider.self
    }

    /// AddingIndoorLocationToAnIOSApp.md, "Fixes and zone events" (it runs while the radio hands out sightings).
    static func fixesAndZoneEvents(venue: Venue, radio: CoreLocationBeaconSource, show: (CLLocation) -> Void)
        async throws
    {
        let runner = LocationSessionRunner(try LocationSession(SessionConfiguration(venue: venue)))
        Task { try await runner.run(radio.sightings()) }
        for await event in runner.events {
            switch event {
            case .fix(let fix): if let location = DeviceLocation(fix) { show(IndoorCLLocation(location)) }
            case .zone(let zone): print(zone.kind, zone.zoneName)  // checkIn, checkOut, dwell
            default: break
            }
        }
    }

    /// AddingIndoorLocationToAnIOSApp.md, "The scan provider".
    static func scanProvider(indoor: Indoor) {
        IndoorScanProvider.register(indoor.scanner)
        SomeLocationSDK.indoorProvider = IndoorScanProvider.self
    }

    /// AddingIndoorLocationToAnIOSApp.md, "The scan provider", with CoreLocation's types.
    static func coreLocationScanProvider(indoor: Indoor) {
        IndoorScanProvider.register(indoor.scanner)
        SomeLocationSDK.indoorProvider = IndoorCLScanProvider.self
    }

    /// AddingIndoorLocationToAnIOSApp.md, "A site survey".
    static func siteSurvey(venue: Venue, radio: CoreLocationBeaconSource, surveyed: [Sighting], truth: [TruthPoint])
        throws
    {
        let survey = Recording(sightings: surveyed, truth: truth)  // shipped with the app or fetched
        let scanner = IndoorScanner(
            venues: [venue], options: IndoorScan.Options(surveys: [venue.id: survey]), clock: ContinuousClock()
        ) { radio.sightings() }
        Task(priority: .utility) { try await scanner.prepare() }  // the first scan need not wait for the learning

        let runner = LocationSessionRunner(try LocationSession(SessionConfiguration(venue: venue)))  // serves at once
        Task { try await runner.run(radio.sightings()) }
        Task(priority: .utility) { try await runner.learn(survey: survey) }  // learns off the runner, then switches
    }

    /// AddingIndoorLocationToAnIOSApp.md, "Recording a survey on the phone".
    static func recordingASurvey(
        venue: Venue, runner: LocationSessionRunner<ContinuousClock>, heard: [Sighting], now: Double
    ) throws -> [String: String] {
        var recorder = SurveyRecorder(device: "this-phone", startedAt: now)
        for sighting in heard { recorder.record(sighting) }  // the sightings the app hears while the user walks
        try recorder.mark(Point2D(x: 2, y: 3), floor: 0, at: now + 1)  // the user taps where they are
        try recorder.mark(Point2D(x: 9, y: 3), floor: 0, at: now + 9, hold: 10)  // and stands there for 10 s
        try recorder.stop(at: now + 20)
        let recorded = try recorder.recording()
        Task(priority: .utility) { try await runner.learn(survey: recorded) }
        let files = try recorder.datasetFiles(nodes: venue.nodes)  // train/ files and nodes.csv
        return files
    }

    /// AddingIndoorLocationToAnIOSApp.md, "Recording a survey on the phone": the survey put to the server.
    static func postingASurvey(
        files: [String: String], venue: Venue, server: URL, adminKey: String
    ) async throws -> (Data, URLResponse) {
        // The train/ files as a multipart form, the parts `sightings` and `truth`, for `PUT /v1/venues/{id}/survey`.
        let boundary = "indoor-survey-\(UUID().uuidString)"
        var body = Data()
        for (part, file) in [("sightings", "train/sightings.csv"), ("truth", "train/truth.csv")] {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part)\"\r\n\r\n".utf8))
            body.append(Data((files[file] ?? "").utf8))
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        var request = URLRequest(url: server.appendingPathComponent("v1/venues/\(venue.id)/survey"))
        request.httpMethod = "PUT"
        request.setValue("Bearer \(adminKey)", forHTTPHeaderField: "Authorization")
        request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        let (answer, response) = try await URLSession.shared.upload(for: request, from: body)
        // 200: the server learns the survey in the background; `GET …/survey` says when, and what it bought.
        return (answer, response)
    }
}
