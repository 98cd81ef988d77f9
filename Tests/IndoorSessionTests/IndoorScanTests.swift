import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorPositioning
import IndoorSession
import IndoorTestSupport
import Testing

@Suite("IndoorScan")
struct IndoorScanTests {
    @Test func aPhoneStandingInTheHallIsFound() throws {
        let venue = hallVenue()
        let target = try ScanTarget(geofence: "hall", venues: [venue])
        var scan = try IndoorScan(target: target, duration: 5)
        let truth = Point2D(x: 6, y: 13)
        for sighting in standing(at: truth, in: venue, seconds: 8) where scan.ingest(sighting) {
            break
        }
        #expect(scan.isComplete)
        let result = try scan.result().get()
        #expect(Point2D(x: result.x, y: result.y).distance(to: truth) < hallTolerance)
        #expect(result.beacons == 5)
        #expect(result.duration == 5)
        #expect(result.timestamp == 1_005)
        // The default's posterior (held near the centroid of the strongest beacons) answers, tracked, and the result
        // names what answered.
        #expect(result.method == "auto+track")
        // Trilateration chosen by name, whose model the readings follow exactly, finds the phone within a metre.
        var trilateration = try IndoorScan(
            target: target, duration: 5, options: IndoorScan.Options(method: .nonlinear))
        for sighting in standing(at: truth, in: venue, seconds: 8) { trilateration.ingest(sighting) }
        let exact = try trilateration.result().get()
        #expect(Point2D(x: exact.x, y: exact.y).distance(to: truth) < 1)
        #expect(exact.method == "nonlinear+track")
        #expect(result.venueId == "hall" && result.geofenceId == "hall" && result.provider == "indoor")
        let coordinate = hallAnchor.coordinate(of: Point2D(x: result.x, y: result.y))
        #expect(abs((result.latitude ?? 0) - coordinate.latitude) < 1e-9)
        #expect(result.seeded == false)
        // Without a known location, the start location is the scan's first position: half a second in, as a
        // device's first fix waits that long for more readings (`firstFixDelay`).
        #expect(result.startLocation?.timestamp == 1_000.5)
    }

    /// The stated error: on the seeded simulated office (one floor, 14 beacons, walls, 4 + 2 dB shadowing, 3 dB
    /// receiver offsets), with the calibration fitted on its survey, 10 s scans of walkers standing still have a
    /// median error under 2 m and a 90th percentile under 4 m (docs/SCAN.md has the table).
    @Test(.releaseBuild) func tenSecondScansOnTheSimulatedOfficeAreWithinTheStatedError() throws {
        let office = try StillWindows()
        var venue = office.simulated.venue
        venue.geofences = ["office"]
        let target = try ScanTarget(geofence: "office", venues: [venue])
        let survey = try #require(office.simulated.dataset.train)
        let options = IndoorScan.Options(calibration: CalibrationFitter().fit(nodes: venue.nodes, survey: survey))
        var errors: [Double] = []
        for device in ["walker-1", "walker-2", "walker-3"] {
            let path = try #require(office.simulated.trajectories[device])
            let sightings = office.simulated.dataset.test.sightings.filter { $0.device == device }
            for start in office.starts(device: device, seconds: 10) {
                var scan = try IndoorScan(target: target, duration: 10, options: options)
                for sighting in sightings where sighting.time >= start && scan.ingest(sighting) {
                    break
                }
                let result = try scan.result().get()
                let truth = path.state(at: try #require(scan.end)).point
                errors.append(Point2D(x: result.x, y: result.y).distance(to: truth))
            }
        }
        #expect(errors.count >= 10)
        let sorted = errors.sorted()
        #expect(sorted[sorted.count / 2] < 2)
        #expect(sorted[(sorted.count - 1) * 9 / 10] < 4)
    }

    /// With the venue's survey (``IndoorScan/Options/surveys``) a scan tracks over the radio map learned from it: on a
    /// smaller seeded office, 10 s scans of walkers standing still have a median error under 1.5 m and a 90th
    /// percentile under 3 m (on the full office, `indoor scan --simulate --sweep --learn-survey` against the
    /// calibration alone: docs/SCAN.md). One session made before any sighting serves every scan (each takes a copy,
    /// so what it learned is learned once) and gives each scan the answer a session of its own gives.
    @Test(.releaseBuild) func scansWithTheVenuesSurveyShareOneLearnedSession() throws {
        let office = try StillWindows(roomsPerSide: 4)
        var venue = office.simulated.venue
        venue.geofences = ["office"]
        let target = try ScanTarget(geofence: "office", venues: [venue])
        let survey = try #require(office.simulated.dataset.train)
        let surveyed = IndoorScan.Options(surveys: [venue.id: survey])
        let shared = try IndoorScan.session(venue: venue, options: surveyed)
        var surveyedErrors: [Double] = []
        var compared = false
        for device in ["walker-1", "walker-2", "walker-3"] {
            let path = try #require(office.simulated.trajectories[device])
            let sightings = office.simulated.dataset.test.sightings.filter { $0.device == device }
            for start in office.starts(device: device, seconds: 10) {
                func scan(_ options: IndoorScan.Options, session: LocationSession?) throws -> IndoorScan {
                    var scan = try IndoorScan(target: target, duration: 10, options: options, session: session)
                    for sighting in sightings where sighting.time >= start && scan.ingest(sighting) {
                        break
                    }
                    return scan
                }
                let withSurvey = try scan(surveyed, session: shared)
                let truth = path.state(at: try #require(withSurvey.end)).point
                let result = try withSurvey.result().get()
                #expect(result.method == "auto+track")
                surveyedErrors.append(Point2D(x: result.x, y: result.y).distance(to: truth))
                if !compared {
                    // A session of its own (learning from the survey again) answers the same.
                    #expect(try scan(surveyed, session: nil).result().get() == result)
                    compared = true
                }
            }
        }
        #expect(surveyedErrors.count >= 10)
        let sorted = surveyedErrors.sorted()
        #expect(sorted[sorted.count / 2] < 1.5)
        #expect(sorted[(sorted.count - 1) * 9 / 10] < 3)
    }

    @Test func nothingHeardAndTooFewBeaconsAreErrorsNamingTheVenue() throws {
        let venue = hallVenue()
        let target = try ScanTarget(geofence: "hall", venues: [venue])
        var silent = try IndoorScan(target: target, duration: 5)
        // Only a beacon of another venue is heard.
        let stranger = BeaconID(uuid: UUID(), major: 9, minor: 9)
        silent.ingest(Sighting(time: 0, device: "phone", source: .beacon(stranger), rssi: -60))
        #expect(throws: ScanError.self) { try silent.result().get() }
        if case .failure(let error) = silent.result() { #expect(error.code == .nothingHeard) }

        var faint = try IndoorScan(target: target, duration: 5)
        for sighting in standing(at: Point2D(x: 1, y: 1), in: venue, seconds: 6, only: 1) { faint.ingest(sighting) }
        guard case .failure(let error) = faint.result() else {
            Issue.record("one beacon is too few for the default minimum of two")
            return
        }
        #expect(error.code == .tooFewBeacons)
        #expect(error.message.contains("heard 1 beacon of venue 'hall'"))
        // With a minimum of one, the default answers at that beacon (its posterior held near the one node heard).
        var near = try IndoorScan(target: target, duration: 5, options: IndoorScan.Options(minimumBeacons: 1))
        for sighting in standing(at: Point2D(x: 1, y: 1), in: venue, seconds: 6, only: 1) { near.ingest(sighting) }
        let answer = try near.result().get()
        #expect(answer.method == "auto+track")  // the estimator that answered, tracked
        #expect(Point2D(x: answer.x, y: answer.y).distance(to: Point2D(x: 0, y: 0)) < 0.5)
    }

    /// The particle filter reads a 1 s mean; a scan whose beacons fell silent seconds before its end still answers
    /// from every beacon heard in the last positioning window.
    @Test func aParticleFilterScanAnswersAfterItsBeaconsFellSilent() throws {
        let venue = hallVenue()
        let target = try ScanTarget(geofence: "hall", venues: [venue])
        var scan = try IndoorScan(
            target: target, duration: 5, options: IndoorScan.Options(method: .particleFilter, tracking: false))
        let truth = Point2D(x: 6, y: 13)
        for sighting in standing(at: truth, in: venue, seconds: 2) { scan.ingest(sighting) }
        // Another beacon's sighting at the scan's end closes it, 3.5 s after the venue's beacons were last heard.
        let stranger = BeaconID(uuid: UUID(), major: 9, minor: 9)
        let closed = scan.ingest(Sighting(time: 1_005, device: "phone", source: .beacon(stranger), rssi: -70))
        #expect(closed)
        let result = try scan.result().get()
        #expect(result.beacons == 5)
        #expect(result.method == "particle-filter")
        #expect(Point2D(x: result.x, y: result.y).distance(to: truth) < hallTolerance)
    }

    @Test func aKnownLocationInsideTheVenueSeedsThePosition() throws {
        let venue = hallVenue()
        let seedPoint = Point2D(x: 10, y: 10)
        let known = hallAnchor.coordinate(of: seedPoint)
        let location = DeviceLocation(latitude: known.latitude, longitude: known.longitude, horizontalAccuracy: 1)
        let target = try ScanTarget(geofence: "hall", venues: [venue], knownLocation: location)
        #expect(target.seed.map { $0.distance(to: seedPoint) < 1e-6 } == true)
        var seeded = try IndoorScan(target: target, duration: 5, knownLocation: location)
        var plain = try IndoorScan(target: try ScanTarget(geofence: "hall", venues: [venue]), duration: 5)
        for sighting in standing(at: Point2D(x: 4, y: 4), in: venue, seconds: 6) {
            seeded.ingest(sighting)
            plain.ingest(sighting)
        }
        let with = try seeded.result().get()
        let without = try plain.result().get()
        #expect(with.seeded && !without.seeded)
        // Pulled towards the seed, and more certain.
        #expect(
            Point2D(x: with.x, y: with.y).distance(to: seedPoint)
                < Point2D(x: without.x, y: without.y).distance(to: seedPoint))
        #expect(with.accuracy < without.accuracy)
        #expect(with.startLocation == location)
    }

    @Test func aDurationThatIsNotPositiveIsRefused() throws {
        let target = try ScanTarget(geofence: "hall", venues: [hallVenue()])
        for seconds in [0, -1, Double.nan, .infinity] {
            #expect(throws: ScanError.self) { try IndoorScan(target: target, duration: seconds) }
        }
    }
}
