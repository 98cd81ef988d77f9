import Foundation
import IndoorModel
import IndoorSession
import IndoorTestSupport
import Testing

@Suite("IndoorScanner")
struct IndoorScannerTests {
    @Test func aScanOverARecordingAnswersOnDataTime() async throws {
        let venue = hallVenue()
        let recording = standing(at: Point2D(x: 14, y: 6), in: venue, seconds: 20)
        let scanner = IndoorScanner(venues: [venue]) { replaying(recording) }
        let result = try await scanner.scan(geofence: "hall", duration: .seconds(10))
        #expect(result.duration == 10 && result.timestamp == 1_010)
        #expect(Point2D(x: result.x, y: result.y).distance(to: Point2D(x: 14, y: 6)) < hallTolerance)
        // A recording shorter than the scan: the answer is made at its last sighting.
        let short = try await scanner.scan(geofence: "hall", duration: .seconds(60))
        #expect(short.duration == 19.5)
    }

    @Test func twoOverlappingScansShareOneSubscriptionToTheSource() async throws {
        let venue = hallVenue()
        let source = HandFedSource()
        let scanner = IndoorScanner(venues: [venue]) { source.stream }
        let long = Task { try await scanner.scan(geofence: "hall", duration: .seconds(6)) }
        let short = Task { try await scanner.scan(geofence: "hall", duration: .seconds(3)) }
        while await scanner.activeScans < 2 { await Task.yield() }
        for sighting in standing(at: Point2D(x: 5, y: 15), in: venue, seconds: 8) {
            source.feed.yield(sighting)
        }
        let first = try await long.value
        let second = try await short.value
        #expect(first.duration == 6 && second.duration == 3)
        #expect(Point2D(x: first.x, y: first.y).distance(to: Point2D(x: 5, y: 15)) < hallTolerance)
        #expect(Point2D(x: second.x, y: second.y).distance(to: Point2D(x: 5, y: 15)) < hallTolerance)
        #expect(await scanner.sourceOpenings == 1)
        #expect(await scanner.activeScans == 0)
    }

    /// `prepare()` learns each venue's survey before any scan, and the scans after it answer from what it learned.
    @Test(.releaseBuild) func aPreparedScannerHasLearnedItsVenuesSurveyBeforeItsFirstScan() async throws {
        let venue = hallVenue()
        // A survey of the hall: a phone standing 2 s at each point of a 4 m grid.
        var survey = Recording(sightings: [], truth: [])
        var start = 0.0
        for x in stride(from: 2.0, through: 18, by: 4) {
            for y in stride(from: 2.0, through: 18, by: 4) {
                let point = Point2D(x: x, y: y)
                survey.sightings += standing(at: point, in: venue, from: start, seconds: 2, device: "surveyor")
                survey.truth += [0, 1, 2].map { TruthPoint(time: start + $0, device: "surveyor", point: point) }
                start += 10
            }
        }
        let options = IndoorScan.Options(surveys: [venue.id: survey])
        let recording = standing(at: Point2D(x: 14, y: 6), in: venue, seconds: 12)
        let scanner = IndoorScanner(venues: [venue], options: options) { replaying(recording) }
        #expect(await !scanner.isPrepared(venue: venue.id))
        try await scanner.prepare()
        #expect(await scanner.isPrepared(venue: venue.id))
        let result = try await scanner.scan(geofence: "hall", duration: .seconds(10))
        #expect(result.method == "auto+track")
        #expect(Point2D(x: result.x, y: result.y).distance(to: Point2D(x: 14, y: 6)) < 1.5)
    }

    @Test func aCancelledScanThrowsCancelled() async throws {
        let source = HandFedSource()
        let scanner = IndoorScanner(venues: [hallVenue()]) { source.stream }
        let scan = Task { try await scanner.scan(geofence: "hall", duration: .seconds(10)) }
        while await scanner.activeScans < 1 { await Task.yield() }
        scan.cancel()
        await #expect(throws: ScanError.cancelled) { try await scan.value }
        #expect(await scanner.activeScans == 0)
    }

    @Test func withoutAuthorisationScansFailAndARevokedOneStops() async throws {
        let source = HandFedSource()
        let denied = IndoorScanner(venues: [hallVenue()], authorization: .denied) { source.stream }
        await #expect(throws: ScanError.notAuthorized) {
            try await denied.scan(geofence: "hall", duration: .seconds(5))
        }
        let scanner = IndoorScanner(venues: [hallVenue()]) { source.stream }
        let scan = Task { try await scanner.scan(geofence: "hall", duration: .seconds(10)) }
        while await scanner.activeScans < 1 { await Task.yield() }
        await scanner.setAuthorization(.denied)
        await #expect(throws: ScanError.notAuthorized) { try await scan.value }
    }

    @Test func anUnknownGeofenceFailsBeforeTheRadioStarts() async throws {
        let scanner = IndoorScanner(venues: [hallVenue()]) { replaying([]) }
        do {
            _ = try await scanner.scan(geofence: "elsewhere", duration: .seconds(5))
            Issue.record("expected unknownGeofence")
        } catch let error as ScanError {
            #expect(error.code == .unknownGeofence)
        }
        #expect(await scanner.sourceOpenings == 0)
    }

    @Test func onTheLivePathTheClockEndsAScanThatHearsNothing() async throws {
        let clock = ManualClock()
        let source = HandFedSource()
        let scanner = IndoorScanner(venues: [hallVenue()], clock: clock) { source.stream }
        let scan = Task { try await scanner.scan(geofence: "hall", duration: .seconds(5)) }
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .seconds(5))
        do {
            _ = try await scan.value
            Issue.record("expected nothingHeard")
        } catch let error as ScanError {
            #expect(error.code == .nothingHeard)
        }
    }
}
