import Foundation
import IndoorModel
import IndoorSession
import Testing

/// What docs/SCAN.md promises an app about indoor scans, done with the public API alone.
@Suite("App side: scans")
struct ScanPromisesTests {
    /// Both nodes heard by `phone` every half second for 5 s.
    static let heard = (0..<10).flatMap { step in
        [
            Sighting(time: Double(step) * 0.5, device: "phone", node: "n1", rssi: -65),
            Sighting(time: Double(step) * 0.5, device: "phone", node: "n2", rssi: -72),
        ]
    }

    @Test("SCAN.md: a scanner over the app's radio answers a scan of a geofence with the documented JSON")
    func scannerAnswersWithTheDocumentedJSON() async throws {
        let scanner = IndoorScanner(venues: [try AppSide.venue()]) { AppSide.stream(Self.heard) }
        let result = try await scanner.scan(geofence: "tiny", duration: .seconds(3))
        #expect(result.geofenceId == "tiny" && result.venueId == "tiny" && result.beacons == 2)
        #expect(result.provider == "indoor" && result.latitude != nil)
        let object = try JSONSerialization.jsonObject(with: Data(result.json().utf8)) as? [String: Any]
        let keys = Set(object?.keys.map { $0 } ?? [])
        #expect(
            keys == [
                "floor", "latitude", "longitude", "x", "y", "accuracy", "confidence", "timestamp", "provider",
                "geofenceId", "venueId", "method", "beacons", "duration",
            ])
    }

    @Test("SCAN.md: scan errors carry public codes an app compares")
    func scanErrorsCarryComparableCodes() async throws {
        let venue = try AppSide.venue()
        let scanner = IndoorScanner(venues: [venue]) { AppSide.stream(Self.heard) }
        await #expect(throws: ScanError.self) { try await scanner.scan(geofence: "nowhere", duration: .seconds(3)) }
        do {
            _ = try await scanner.scan(geofence: "nowhere", duration: .seconds(3))
        } catch let error as ScanError {
            #expect(error.code == .unknownGeofence && error.code != .nothingHeard)
        }
        let silent = IndoorScanner(venues: [venue]) { AppSide.stream([]) }
        do {
            _ = try await silent.scan(geofence: "tiny", duration: .seconds(3))
            Issue.record("a scan that heard nothing answered")
        } catch let error as ScanError {
            #expect(error.code == .nothingHeard)
        }
    }

    @Test("SCAN.md: what the user allows: a denied scanner fails with notAuthorized, and setAuthorization allows it")
    func authorizationDecidesWhetherAScanRuns() async throws {
        let scanner = IndoorScanner(venues: [try AppSide.venue()], authorization: .denied) {
            AppSide.stream(Self.heard)
        }
        do {
            _ = try await scanner.scan(geofence: "tiny", duration: .seconds(3))
            Issue.record("a scan ran without authorisation")
        } catch let error as ScanError {
            #expect(error.code == .notAuthorized)
        }
        await scanner.setAuthorization(.whenInUse)
        #expect(await scanner.authorization.allowsScanning)
        #expect(try await scanner.scan(geofence: "tiny", duration: .seconds(3)).beacons == 2)
    }

    @Test("SCAN.md: prepare() learns ahead of the first scan; isPrepared says so")
    func prepareAheadOfTheFirstScan() async throws {
        let scanner = IndoorScanner(venues: [try AppSide.venue()]) { AppSide.stream(Self.heard) }
        #expect(await scanner.isPrepared(venue: "tiny") == false)
        try await scanner.prepare()
        #expect(await scanner.isPrepared(venue: "tiny"))
    }

    @Test("SCAN.md: the pure scan and its target, as the command runs them")
    func pureScanAndTarget() throws {
        let venue = try AppSide.venue()
        let known = DeviceLocation(latitude: 52.5, longitude: 13.4002, horizontalAccuracy: 5)
        let target = try ScanTarget(geofence: "tiny", venues: [venue], knownLocation: known)
        #expect(target.venue.id == "tiny" && target.seed != nil)
        var scan = try IndoorScan(target: target, duration: 3, knownLocation: known)
        for sighting in Self.heard {
            if scan.ingest(sighting) { break }
        }
        #expect(scan.isComplete && scan.end == 3)
        let result = try scan.result().get()
        #expect(result.seeded && result.beacons == 2)
        #expect(throws: ScanError.self) { try IndoorScan(target: target, duration: 0) }
    }
}
