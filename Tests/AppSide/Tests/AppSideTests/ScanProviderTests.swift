import Foundation
import IndoorModel
import IndoorSession
import Testing

/// The scan provider's registration is one for the process, so the tests that register run one at a time.
@Suite("App side: the scan provider", .serialized)
@MainActor
struct ScanProviderTests {
    @Test("SCAN.md: the provider's shape: registered once, its handler called once with the JSON")
    func providerCallsItsHandlerOnce() async throws {
        let scanner = IndoorScanner(venues: [try AppSide.venue()]) { AppSide.stream(ScanPromisesTests.heard) }
        IndoorScanProvider.register(scanner, callbackQueue: DispatchQueue(label: "app-side-scan"))
        defer { IndoorScanProvider.unregister() }
        let provider: any IndoorScanProviding.Type = IndoorScanProvider.self
        let answer = await withCheckedContinuation { (done: CheckedContinuation<String?, Never>) in
            provider.startIndoorScan("tiny", forLength: 3, withKnownLocation: nil) { json, _ in
                done.resume(returning: json)
            }
        }
        #expect(answer?.contains("\"geofenceId\":\"tiny\"") == true)
        let failed = await withCheckedContinuation { (done: CheckedContinuation<String?, Never>) in
            IndoorScanProvider.startIndoorScan("nowhere", forLength: 3, withKnownLocation: nil) { json, _ in
                done.resume(returning: json)
            }
        }
        #expect(failed == nil && IndoorScanProvider.lastError?.code == .unknownGeofence)
    }

    @Test("IndoorSession.docc, IndoorCoreLocation.docc: the provider examples register the app's scanner")
    func providerExamplesRegisterTheScanner() throws {
        let indoor = try Indoor(venueJSON: AppSide.venueJSON)
        #expect(indoor.venue.id == "tiny")
        defer { IndoorScanProvider.unregister() }
        DocCExamples.scanProvider(indoor: indoor)
        #expect(IndoorScanProvider.scanner === indoor.scanner)
        #expect(SomeLocationSDK.indoorProvider == IndoorScanProvider.self)
        DocCExamples.coreLocationScanProvider(indoor: indoor)
        #expect(SomeLocationSDK.indoorProvider != IndoorScanProvider.self)
        let other = IndoorScanner(venues: [indoor.venue]) { AppSide.stream([]) }
        DocCExamples.coreLocationProvider(scanner: other)
        #expect(IndoorScanProvider.scanner === other)
    }
}
